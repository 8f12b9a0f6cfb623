//! What the scripting subcommands read from the user: an IPv4 address, a confirmation, a
//! new password. All of it is checked before anything is sent.

use super::Failure;
use std::io::{self, BufRead, IsTerminal, Write};
use std::net::Ipv4Addr;

/// The API's strict dotted quad ([`crate::api::ipv4`]).
pub fn ipv4(text: &str) -> Option<Ipv4Addr> {
    crate::api::ipv4::parse_ipv4(text).ok()
}

/// [`ipv4`], or the usage error that names the bad value.
pub fn require_ipv4(text: &str, what: &str) -> Result<Ipv4Addr, Failure> {
    ipv4(text).ok_or_else(|| {
        Failure::Usage(format!(
            "{what}: {:?} is not an IPv4 address; write it as a dotted quad such as 203.0.113.5 (no leading zeros)",
            super::output::sanitize(text)
        ))
    })
}

pub fn stdin_is_terminal() -> bool {
    io::stdin().is_terminal()
}

/// Asks `question [y/N]` on standard error and reads the answer from standard input:
/// `y` or `yes` (any case) is yes; anything else, or the end of input, is no.
pub fn confirm(question: &str) -> io::Result<bool> {
    {
        let mut err = io::stderr().lock();
        write!(err, "{question} [y/N] ")?;
        err.flush()?;
    }
    let mut answer = String::new();
    io::stdin().lock().read_line(&mut answer)?;
    let answer = answer.trim();
    Ok(answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes"))
}

/// The new password: the first line of standard input when it is not a terminal (the line
/// break stripped), else typed twice at a prompt that does not echo.
pub fn new_password() -> Result<String, Failure> {
    let password = if stdin_is_terminal() {
        let first = rpassword::prompt_password("New password: ")
            .map_err(|e| Failure::Failed(format!("cannot read the password: {e}")))?;
        if first.is_empty() {
            return Err(Failure::Usage(
                "the new password is empty; nothing was changed".into(),
            ));
        }
        let again = rpassword::prompt_password("Again: ")
            .map_err(|e| Failure::Failed(format!("cannot read the password: {e}")))?;
        if first != again {
            return Err(Failure::Usage(
                "the two passwords differ; nothing was changed".into(),
            ));
        }
        first
    } else {
        first_line(io::stdin().lock())
            .map_err(|e| Failure::Failed(format!("cannot read standard input: {e}")))?
    };
    if password.is_empty() {
        return Err(Failure::Usage(
            "the new password is empty (standard input held no line); nothing was changed".into(),
        ));
    }
    Ok(password)
}

/// The first line of `input` without its `\n` or `\r\n`.
fn first_line(mut input: impl BufRead) -> io::Result<String> {
    let mut line = String::new();
    input.read_line(&mut line)?;
    if line.ends_with('\n') {
        line.pop();
        if line.ends_with('\r') {
            line.pop();
        }
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_is_a_strict_dotted_quad() {
        assert_eq!(ipv4("203.0.113.5"), Some(Ipv4Addr::new(203, 0, 113, 5)));
        assert_eq!(ipv4("0.0.0.0"), Some(Ipv4Addr::UNSPECIFIED));
        assert_eq!(ipv4("255.255.255.255"), Some(Ipv4Addr::BROADCAST));
        for bad in [
            "",
            "1.2.3",
            "1.2.3.4.5",
            "01.2.3.4",
            "1.2.3.00",
            "256.1.1.1",
            "1.2.3.4 ",
            " 1.2.3.4",
            "1.2.3.-4",
            "+1.2.3.4",
            "1..3.4",
            "0x1.2.3.4",
            "1234.1.1.1",
            "::1",
            "١.٢.٣.٤",
        ] {
            assert_eq!(ipv4(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn first_line_strips_the_line_break_only() {
        assert_eq!(first_line(&b"s3cret\nsecond\n"[..]).unwrap(), "s3cret");
        assert_eq!(first_line(&b"s3cret\r\n"[..]).unwrap(), "s3cret");
        assert_eq!(first_line(&b" spaced \n"[..]).unwrap(), " spaced ");
        assert_eq!(first_line(&b"no newline"[..]).unwrap(), "no newline");
        assert_eq!(first_line(&b""[..]).unwrap(), "");
    }
}
