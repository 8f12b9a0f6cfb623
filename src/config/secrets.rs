//! `token_command` / `password_command`: a secret printed by another program (`pass`,
//! `op read`, `gopass show -o`), so it never has to sit in the config file.
//!
//! The command runs through `sh -c` with no input. Its standard output, without the final
//! line break, is the secret; a failing command is reported with its exit status and the
//! first line of its standard error — never with its output, which may hold the secret.

use crate::secret::Secret;
use std::process::{Command, Stdio};

pub fn run(command: &str, what: &str) -> Result<Secret, String> {
    let output = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run the {what} command: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().next().unwrap_or("").trim();
        return Err(format!(
            "the {what} command `{command}` failed ({}){}",
            output.status,
            if first.is_empty() {
                String::new()
            } else {
                format!(": {first}")
            }
        ));
    }
    let text = String::from_utf8(output.stdout)
        .map_err(|_| format!("the {what} command printed something that is not text"))?;
    let secret = text.strip_suffix('\n').unwrap_or(&text);
    let secret = secret.strip_suffix('\r').unwrap_or(secret);
    if secret.is_empty() {
        return Err(format!("the {what} command `{command}` printed nothing"));
    }
    Ok(Secret::new(secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_without_the_final_newline_is_the_secret() {
        assert_eq!(
            run("printf 'abc def\\n'", "token").unwrap().expose(),
            "abc def"
        );
    }

    #[test]
    fn a_failing_command_says_so_without_its_output() {
        let err = run(
            "printf 'leaked-%s' secret; echo 'no such entry' >&2; exit 3",
            "token",
        )
        .unwrap_err();
        assert!(err.contains("no such entry"), "{err}");
        assert!(!err.contains("leaked-secret"), "{err}");
    }

    #[test]
    fn empty_output_is_an_error() {
        assert!(run("true", "password").is_err());
    }
}
