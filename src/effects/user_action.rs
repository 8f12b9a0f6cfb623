//! Running one of your actions (`config::actions`, `app::user_actions`): the program and
//! its arguments as given, no shell; `{iplist_file}` is the path of a fresh 0600 file
//! holding the service's IP list, removed when the command ends.
//!
//! In the background its standard input is empty, and of its output (standard output and
//! error together) the last [`LINES_KEPT`] lines of at most [`OUTPUT_MAX`] bytes are kept
//! for `m`; the rest is read and dropped, so a chatty command never blocks on a full pipe.
//! It is stopped after [`TIME_LIMIT`]. In the foreground it has the terminal (the run
//! loop's [`foreground`]) and no limit: the person is watching it.

use crate::app::Msg;
pub use crate::config::actions::{Ended, LINES_KEPT, OUTPUT_MAX, Run, TIME_LIMIT};
use std::path::PathBuf;
use std::process::Stdio;
use tokio::io::{AsyncRead, AsyncReadExt};

/// The IP list in a fresh file only this user can read; its path.
fn write_list(contents: &str) -> Result<PathBuf, String> {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!("proxydash-iplist-{}-{n}.txt", std::process::id()));
    crate::files::write_new(&path, contents.as_bytes())
        .map_err(|e| format!("cannot write the IP list to {}: {e}", path.display()))?;
    Ok(path)
}

/// The arguments with `{iplist_file}` given the file's path (written now, when the run
/// has a list), and the file to remove after.
fn prepared(run: &Run) -> Result<(Vec<String>, Option<PathBuf>), String> {
    let file = run.iplist.as_deref().map(write_list).transpose()?;
    let argv = run
        .argv
        .iter()
        .map(|a| match &file {
            Some(f) => a.replace("{iplist_file}", &f.display().to_string()),
            None => a.clone(),
        })
        .collect();
    Ok((argv, file))
}

/// Reads `from` to its end, keeping at most [`OUTPUT_MAX`] bytes.
async fn bounded(mut from: impl AsyncRead + Unpin) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = from.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let room = OUTPUT_MAX.saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
    }
    kept
}

/// Runs `run` on a task of its own; its end goes to `tx` as [`Msg::ActionDone`].
pub fn spawn(run: Run, tx: tokio::sync::mpsc::UnboundedSender<Msg>) {
    tokio::spawn(async move {
        let name = run.name.clone();
        let result = background(run).await;
        let _ = tx.send(Msg::ActionDone { name, result });
    });
}

/// Runs `run` in the background; how it ended.
pub async fn background(run: Run) -> Result<Ended, String> {
    let (argv, file) = prepared(&run)?;
    let result = async {
        let mut child = tokio::process::Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", argv[0]))?;
        let out = tokio::spawn(bounded(child.stdout.take().expect("piped")));
        let err = tokio::spawn(bounded(child.stderr.take().expect("piped")));
        let (code, timed_out) = match tokio::time::timeout(TIME_LIMIT, child.wait()).await {
            Ok(status) => (status.map_err(|e| e.to_string())?.code(), false),
            Err(_) => {
                let _ = child.kill().await;
                (None, true)
            }
        };
        let mut text = out.await.unwrap_or_default();
        text.extend(err.await.unwrap_or_default());
        let text = String::from_utf8_lossy(&text);
        let lines: Vec<String> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| crate::text::sanitize(l).into_owned())
            .collect();
        let skip = lines.len().saturating_sub(LINES_KEPT);
        Ok(Ended {
            code,
            lines: lines.into_iter().skip(skip).collect(),
            timed_out,
        })
    }
    .await;
    if let Some(f) = file {
        let _ = std::fs::remove_file(f);
    }
    result
}

/// Runs `run` with the terminal (the caller gave it back to the shell's state first).
pub async fn foreground(run: Run) -> Result<Ended, String> {
    let (argv, file) = prepared(&run)?;
    let status = tokio::process::Command::new(&argv[0])
        .args(&argv[1..])
        .status()
        .await
        .map_err(|e| format!("cannot run {}: {e}", argv[0]));
    if let Some(f) = file {
        let _ = std::fs::remove_file(f);
    }
    Ok(Ended {
        code: status?.code(),
        lines: Vec::new(),
        timed_out: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(argv: &[&str], iplist: Option<&str>) -> Run {
        Run {
            name: "t".into(),
            argv: argv.iter().map(|s| (*s).to_owned()).collect(),
            background: true,
            iplist: iplist.map(str::to_owned),
        }
    }

    #[tokio::test]
    async fn a_hostile_value_is_one_argument_and_the_list_a_private_file() {
        // `sh -c` is the user's own choice here; the value after it stays $1, never code.
        let ended = background(run(
            &[
                "sh",
                "-c",
                "printf '%s\\n' \"$1\"; ls -l \"$2\" | cut -c1-10; cat \"$2\"",
                "sh",
                "a; rm -rf / $(reboot)",
                "{iplist_file}",
            ],
            Some("10.0.0.1:8000:u:p\n"),
        ))
        .await
        .unwrap();
        assert_eq!(ended.code, Some(0));
        assert_eq!(
            ended.lines,
            ["a; rm -rf / $(reboot)", "-rw-------", "10.0.0.1:8000:u:p"]
        );
    }

    #[tokio::test]
    async fn output_is_bounded_and_a_missing_program_said() {
        let ended = background(run(&["sh", "-c", "yes | head -c 1000000; exit 3"], None))
            .await
            .unwrap();
        assert_eq!(ended.code, Some(3));
        assert!(ended.lines.len() <= LINES_KEPT);
        let why = background(run(&["/nonexistent/proxydash-x"], None))
            .await
            .unwrap_err();
        assert!(
            why.starts_with("cannot run /nonexistent/proxydash-x"),
            "{why}"
        );
    }
}
