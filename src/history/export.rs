//! `proxydash history export`: every change kept since a time, oldest first, as CSV, TSV
//! or JSON, streamed from the file (memory does not grow with the history), or as rows
//! for the aligned table ([`cells`]).
//!
//! One row per change, the same columns in both formats:
//!
//! | kind | service_id | subject | value | extra | detail |
//! |---|---|---|---|---|---|
//! | `credit` | — | — | the credit | — | — |
//! | `status` | the service | its status | — | its next due date | — |
//! | `error_start` / `error_end` | the service | the server | — | — | — |
//! | `inactive_start` / `inactive_end` | the service | the server | — | — | — |
//! | `usage_day` (at: the day's midnight UTC) | the service | the day | the usage | — | — |
//! | `rate` | the service | — | the rate | the limit | — |
//! | `probe` | the service | the proxy, `scheme://host:port` | 1 ok, 0 failed | latency in ms | the exit IP |
//! | `rotation` | the service | the gateway, `scheme://host:port` | distinct exit IPs | the change rate (0–1) | `asked N, answered N, changed C/P, latency MIN-MAX ms p50 M ms` |
//! | `probe_round` | the service | — | the alive share of the round (0–1) | the p50 latency of the alive ones, ms | `alive A of C` |
//!
//! `detail` came with the probe's exit IP (a sixth column added at the end, so a script
//! reading the first five by position is not broken); probe rows written before the
//! protocol was kept have a bare `host:port` subject.
//!
//! `at` is RFC 3339 in UTC. Server text is exported with control characters removed in
//! CSV and TSV (it is meant for a terminal or a spreadsheet), and a text cell that begins
//! with `=`, `+`, `-` or `@` gets a `'` before it (a spreadsheet would take it for a
//! formula; CSV quotes it too): the rule this export has had from its start, kept so
//! that what reads it is not broken. TSV escapes tab, line breaks and backslash as
//! `\t`, `\n`, `\r`, `\\`. JSON has the text as it is, escaped as JSON requires.

use rusqlite::Connection;
use rusqlite::types::Value;
use std::io::{self, Write};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Tsv,
    Json,
}

const QUERY: &str = "
    SELECT at, 'credit', NULL, NULL, credit, NULL, NULL FROM credit WHERE at >= ?1
    UNION ALL SELECT at, 'status', service_id, status, NULL, nextduedate, NULL
        FROM service_state WHERE at >= ?1
    UNION ALL SELECT since, CASE list WHEN 0 THEN 'error_start' ELSE 'inactive_start' END,
        service_id, server, NULL, NULL, NULL FROM server_spell WHERE since >= ?1
    UNION ALL SELECT until, CASE list WHEN 0 THEN 'error_end' ELSE 'inactive_end' END,
        service_id, server, NULL, NULL, NULL FROM server_spell WHERE until >= ?1
    UNION ALL SELECT CAST(strftime('%s', day) AS INTEGER), 'usage_day', service_id, day, rate, NULL
        , NULL FROM usage_day WHERE day >= date(?1, 'unixepoch')
    UNION ALL SELECT at, 'rate', service_id, NULL, rate, rate_limit, NULL FROM rate WHERE at >= ?1
    UNION ALL SELECT at, 'probe', service_id,
        CASE WHEN scheme IS NULL THEN server ELSE scheme || '://' || server END,
        ok, latency_ms, exit_ip FROM probe WHERE at >= ?1
    UNION ALL SELECT at, 'rotation', service_id, scheme || '://' || server,
        distinct_ips, CASE WHEN pairs > 0 THEN round(CAST(changes AS REAL) / pairs, 3) END,
        'asked ' || asked || ', answered ' || answered || ', changed ' || changes || '/' || pairs
            || coalesce(', latency ' || min_ms || '-' || max_ms || ' ms p50 ' || p50_ms || ' ms', '')
        FROM rotation WHERE at >= ?1
    UNION ALL SELECT at, 'probe_round', service_id, NULL,
        round(CAST(alive AS REAL) / max(checked, 1), 3), p50_ms,
        'alive ' || alive || ' of ' || checked
        FROM probe_round WHERE at >= ?1
    ORDER BY 1";

const COLUMNS: [&str; 7] = [
    "at",
    "kind",
    "service_id",
    "subject",
    "value",
    "extra",
    "detail",
];

/// Calls `each` with every change since `since` (Unix seconds), oldest first: its time
/// (RFC 3339) and its values under [`COLUMNS`] (the first, the time, as stored).
fn each_row(
    conn: &Connection,
    since: i64,
    mut each: impl FnMut(String, &[Value]) -> Result<(), String>,
) -> Result<u64, String> {
    let mut q = conn.prepare(QUERY).map_err(|e| e.to_string())?;
    let mut rows = q.query([since]).map_err(|e| e.to_string())?;
    let mut n = 0u64;
    while let Some(row) = rows.next().map_err(|e| e.to_string())? {
        let mut values: Vec<Value> = Vec::with_capacity(COLUMNS.len());
        for i in 0..COLUMNS.len() {
            values.push(row.get(i).map_err(|e| e.to_string())?);
        }
        let at = match &values[0] {
            Value::Integer(t) => chrono::DateTime::from_timestamp(*t, 0)
                .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
                .unwrap_or_default(),
            _ => String::new(),
        };
        each(at, &values)?;
        n += 1;
    }
    Ok(n)
}

/// Writes every change since `since` (Unix seconds) to `out`; answers the rows written.
pub fn export(
    conn: &Connection,
    since: i64,
    format: Format,
    out: &mut dyn Write,
) -> Result<u64, String> {
    let io = |e: io::Error| e.to_string();
    match format {
        Format::Csv => writeln!(out, "{}", COLUMNS.join(",")).map_err(io)?,
        Format::Tsv => writeln!(out, "{}", COLUMNS.join("\t")).map_err(io)?,
        Format::Json => write!(out, "[").map_err(io)?,
    }
    let mut n = 0u64;
    each_row(conn, since, |at, values| {
        match format {
            Format::Csv => {
                let mut cells = vec![at];
                cells.extend(values[1..].iter().map(csv_cell));
                writeln!(out, "{}", cells.join(",")).map_err(io)?;
            }
            Format::Tsv => {
                let mut cells = vec![at];
                cells.extend(values[1..].iter().map(|v| crate::text::tsv_field(&cell(v))));
                writeln!(out, "{}", cells.join("\t")).map_err(io)?;
            }
            Format::Json => {
                let mut obj = serde_json::Map::new();
                obj.insert("at".into(), at.into());
                for (name, v) in COLUMNS[1..].iter().zip(&values[1..]) {
                    obj.insert((*name).into(), json_value(v));
                }
                let sep = if n == 0 { "\n  " } else { ",\n  " };
                write!(out, "{sep}{}", serde_json::Value::Object(obj)).map_err(io)?;
            }
        }
        n += 1;
        Ok(())
    })?;
    if format == Format::Json {
        writeln!(out, "{}]", if n == 0 { "" } else { "\n" }).map_err(io)?;
    }
    Ok(n)
}

/// The headers of the aligned table, one per column of [`COLUMNS`].
pub const HEADERS: [&str; 7] = [
    "AT", "KIND", "SERVICE", "SUBJECT", "VALUE", "EXTRA", "DETAIL",
];

/// Every change since `since`, as the cells of the aligned table (the cells of the CSV,
/// unquoted), oldest first: read whole, for a table is read by a person.
pub fn cells(conn: &Connection, since: i64) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    each_row(conn, since, |at, values| {
        rows.push(
            std::iter::once(at)
                .chain(values[1..].iter().map(cell))
                .collect(),
        );
        Ok(())
    })?;
    Ok(rows)
}

/// A value as a CSV or TSV cell before quoting: text without control characters, and
/// with a `'` before a leading formula character (see the module docs).
fn cell(v: &Value) -> String {
    match v {
        Value::Null | Value::Blob(_) => String::new(),
        Value::Integer(i) => i.to_string(),
        Value::Real(f) => f.to_string(),
        Value::Text(s) => {
            let s = crate::text::sanitize(s);
            match s.starts_with(['=', '+', '-', '@']) {
                true => format!("'{s}"),
                false => s.into_owned(),
            }
        }
    }
}

fn csv_cell(v: &Value) -> String {
    let text = cell(v);
    match v {
        // Quoted; a leading formula character is kept as text by spreadsheets only with a
        // quote before it.
        Value::Text(s)
            if crate::text::sanitize(s).starts_with(['=', '+', '-', '@'])
                || text.contains([',', '"']) =>
        {
            format!("\"{}\"", text.replace('"', "\"\""))
        }
        _ => text,
    }
}

fn json_value(v: &Value) -> serde_json::Value {
    match v {
        Value::Null | Value::Blob(_) => serde_json::Value::Null,
        Value::Integer(i) => (*i).into(),
        Value::Real(f) => {
            serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, Into::into)
        }
        Value::Text(s) => s.clone().into(),
    }
}

/// `7d`, `12h`, `30m`, or a date `2026-11-01` (midnight UTC): the start of the export,
/// in Unix seconds, counted back from `now`.
pub fn parse_since(s: &str, now: chrono::DateTime<chrono::Utc>) -> Result<i64, String> {
    let s = s.trim();
    if let Ok(day) = s.parse::<chrono::NaiveDate>() {
        return Ok(day
            .and_hms_opt(0, 0, 0)
            .unwrap_or_default()
            .and_utc()
            .timestamp());
    }
    let bad =
        || format!("--since {s:?}: give a span like 7d, 12h or 30m, or a date like 2026-11-01");
    let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?);
    let n: i64 = digits.parse().map_err(|_| bad())?;
    let secs = match unit {
        "d" => 86_400,
        "h" => 3600,
        "m" => 60,
        _ => return Err(bad()),
    };
    Ok(now.timestamp().saturating_sub(n.saturating_mul(secs)))
}
