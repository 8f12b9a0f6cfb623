//! Functions and their lengths, found by reading the source: comments, strings and
//! character literals are blanked (line breaks kept), then `fn` items are matched to
//! their closing brace. Not a Rust parser, only enough of one for this code base: it knows
//! nested block comments, raw strings, lifetimes beside character literals, `fn` pointer
//! types and bodiless declarations, and skips items under `#[cfg(test)]`.

/// A function with a body.
#[derive(Debug, PartialEq)]
pub struct Function {
    pub name: String,
    /// The line of its `fn`, from 1.
    pub line: usize,
    /// From the `fn` line to the closing brace's, both counted.
    pub lines: usize,
}

/// Every function with a body in `source`, outside `#[cfg(test)]` items, nested ones too.
pub fn functions(source: &str) -> Vec<Function> {
    let code = code_only(source);
    let tests = cfg_test_spans(&code);
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = find_fn(&code, from) {
        from = at + 2;
        // `fn(u32) -> u32` is a type, not an item: no name follows.
        let Some(name) = name_after(&code, from) else {
            continue;
        };
        // A declaration in a trait ends with `;`.
        let Some(open) = body_start(&code, from) else {
            continue;
        };
        if tests
            .iter()
            .any(|(start, end)| (*start..=*end).contains(&at))
        {
            continue;
        }
        let line = line_of(&code, at);
        found.push(Function {
            name,
            line,
            lines: line_of(&code, closing(&code, open)) - line + 1,
        });
    }
    found
}

/// The source as characters with every comment, string and character literal turned
/// into spaces (line breaks kept, so lines still count), leaving only code.
fn code_only(source: &str) -> Vec<char> {
    let mut code: Vec<char> = source.chars().collect();
    let mut i = 0;
    while i < code.len() {
        match literal_end(&code, i) {
            Some(end) => {
                for c in &mut code[i..end] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = end;
            }
            None => i += 1,
        }
    }
    code
}

/// Where the comment or literal starting at `i` ends (exclusive), if one starts there.
fn literal_end(s: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| s.get(k).copied();
    match s[i] {
        '/' if at(i + 1) == Some('/') => {
            Some((i..s.len()).find(|&k| s[k] == '\n').unwrap_or(s.len()))
        }
        '/' if at(i + 1) == Some('*') => Some(block_comment_end(s, i)),
        '"' => {
            let mut k = i + 1;
            while k < s.len() && s[k] != '"' {
                k += if s[k] == '\\' { 2 } else { 1 };
            }
            Some((k + 1).min(s.len()))
        }
        // '\n', '\'', '\u{1b}': to the first quote after the escaped character.
        '\'' if at(i + 1) == Some('\\') => (i + 3..s.len()).find(|&k| s[k] == '\'').map(|k| k + 1),
        // 'x'; a lifetime ('a, 'static) has no closing quote there.
        '\'' if at(i + 2) == Some('\'') => Some(i + 3),
        'r' | 'b' if i == 0 || !is_ident(s[i - 1]) => raw_string_end(s, i),
        _ => None,
    }
}

fn block_comment_end(s: &[char], i: usize) -> usize {
    let (mut depth, mut k) = (0usize, i);
    while k + 1 < s.len() {
        if s[k] == '/' && s[k + 1] == '*' {
            depth += 1;
            k += 2;
        } else if s[k] == '*' && s[k + 1] == '/' {
            depth -= 1;
            k += 2;
            if depth == 0 {
                return k;
            }
        } else {
            k += 1;
        }
    }
    s.len()
}

/// `r"…"`, `r#"…"#`, `br##"…"##`: to the quote followed by as many `#` as opened it.
fn raw_string_end(s: &[char], i: usize) -> Option<usize> {
    let mut k = i + usize::from(s[i] == 'b');
    if s.get(k) != Some(&'r') {
        return None;
    }
    k += 1;
    let hashes = s[k..].iter().take_while(|c| **c == '#').count();
    k += hashes;
    if s.get(k) != Some(&'"') {
        return None; // an identifier, or a raw identifier (`r#type`)
    }
    let closes = |e: usize| {
        s[e] == '"' && s.len() > e + hashes && s[e + 1..=e + hashes].iter().all(|c| *c == '#')
    };
    Some(
        (k + 1..s.len())
            .find(|&e| closes(e))
            .map_or(s.len(), |e| e + 1 + hashes),
    )
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The next `fn` keyword at or after `from`: a whole word followed by white space.
fn find_fn(code: &[char], from: usize) -> Option<usize> {
    (from..code.len().saturating_sub(2)).find(|&k| {
        code[k] == 'f'
            && code[k + 1] == 'n'
            && code[k + 2].is_whitespace()
            && (k == 0 || !is_ident(code[k - 1]))
    })
}

fn name_after(code: &[char], from: usize) -> Option<String> {
    let name: String = code[from..]
        .iter()
        .skip_while(|c| c.is_whitespace())
        .take_while(|c| is_ident(**c))
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The `{` that opens the item's body, or `None` when a `;` ends it first (outside
/// brackets, so `[u8; 4]` in a signature does not).
fn body_start(code: &[char], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, c) in code.iter().enumerate().skip(from) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => return Some(k),
            ';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The brace that closes the one at `open` (the end of the text if none does).
fn closing(code: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, c) in code.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    code.len().saturating_sub(1)
}

/// From each `#[cfg(test)]` to the end of the item it marks.
fn cfg_test_spans(code: &[char]) -> Vec<(usize, usize)> {
    let attribute: Vec<char> = "#[cfg(test)]".chars().collect();
    (0..code.len())
        .filter(|&k| code[k..].starts_with(&attribute))
        .filter_map(|k| {
            let open = body_start(code, k + attribute.len())?;
            Some((k, closing(code, open)))
        })
        .collect()
}

fn line_of(code: &[char], at: usize) -> usize {
    1 + code[..at].iter().filter(|c| **c == '\n').count()
}

#[test]
fn the_scanner_measures_what_the_rule_forbids() {
    let source = r##"//! fn in_a_doc() {
fn short() {}
fn tricky<'a>(x: &'a str, f: fn(u32) -> u32) -> [u8; 2] {
    let _ = ("}}}", '}', '\'', '\u{7d}', b'}', b"}", br#"}" fn fake() {"#);
    let _ = r#"}" }"#;
    // }
    /* } /* } */ fn fake() { */
    let _ = r#type;
    fn inner() {
    }
    [0; 2]
}
trait T {
    fn declared(&self);
}
#[cfg(test)]
mod tests {
    fn hidden() {
    }
}
fn after_tests() {
}
"##;
    let found: Vec<(String, usize, usize)> = functions(source)
        .into_iter()
        .map(|f| (f.name, f.line, f.lines))
        .collect();
    let want = [
        ("short", 2, 1),
        ("tricky", 3, 10),
        ("inner", 9, 2),
        ("after_tests", 21, 2),
    ];
    let want: Vec<(String, usize, usize)> = want
        .into_iter()
        .map(|(n, l, len)| (n.to_owned(), l, len))
        .collect();
    assert_eq!(found, want);
}
