//! `token_command` / `password_command`: what a failing one says, and what it never shows.

use super::*;

const KEY: &str = "profiles.p.token_command";

#[test]
fn output_without_the_final_newline_is_the_secret() {
    assert_eq!(run("printf 'abc def\\n'", KEY).unwrap().expose(), "abc def");
    assert_eq!(key("resale", "token"), "profiles.resale.token_command");
    assert_eq!(
        key("my shop", "password"),
        "profiles.\"my shop\".password_command"
    );
}

#[test]
fn a_failing_command_is_named_by_its_key_and_its_error_output_only_counted() {
    let err = run(
        "printf 'leaked-%s' secret; echo 'no such entry' >&2; exit 3",
        KEY,
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "profiles.p.token_command failed: exit 3");
    assert_eq!(err.error_bytes, "no such entry\n".len());
}

#[test]
fn a_secret_in_the_command_or_its_error_output_is_never_kept() {
    for command in [
        // Embedded in the command, which a shell's error then quotes.
        "sk_live_4eC39HqLyj; exit 1",
        // Printed on both streams before failing.
        "echo hunter22; echo 'token hunter22' >&2; exit 1",
        // A bare secret printed to standard error only.
        "echo Zm9vYmFyYmF6cXV4 >&2; exit 1",
        // Inside a sentence, as an auth tool says it (issue 46.5).
        "echo 'auth error: token SECRETtok expired' >&2; exit 1",
    ] {
        let err = run(command, KEY).unwrap_err();
        let all = format!("{err} {err:?}");
        for secret in ["sk_live", "hunter22", "Zm9vYmFy", "SECRETtok"] {
            assert!(!all.contains(secret), "{command}: {all}");
        }
    }
}

#[test]
fn empty_output_is_an_error() {
    let err = run("true", "profiles.p.password_command").unwrap_err();
    assert_eq!(
        err.to_string(),
        "profiles.p.password_command printed nothing"
    );
}

#[test]
fn a_command_that_hangs_is_stopped_at_the_timeout() {
    let limits = Limits {
        timeout: Duration::from_millis(200),
    };
    let err = run_with("sleep 30", KEY, limits).unwrap_err().to_string();
    assert!(
        err.contains("did not finish") && err.contains("command_timeout"),
        "{err}"
    );
}

#[test]
fn endless_output_is_cut_and_refused() {
    // `yes` never ends by itself: only the cap (or the timeout) stops it.
    let err = run_with("yes", KEY, Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("more than 64 KiB"), "{err}");
    let err = run("head -c 70000 /dev/zero | tr '\\0' x", KEY)
        .unwrap_err()
        .to_string();
    assert!(err.contains("more than 64 KiB"), "{err}");
    assert_eq!(
        run("head -c 65535 /dev/zero | tr '\\0' x", KEY)
            .unwrap()
            .expose()
            .len(),
        65535
    );
}
