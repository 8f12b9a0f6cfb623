//! proxydash's own command line for what the dashboard does: the palette (`:`) shows the
//! command of each action before it runs, and the command log (`L`) lists the commands of
//! what was carried out this session, ready to paste into a script.
//!
//! The lines are built from the same values the dashboard sends, so they say exactly what
//! was done:
//! - **The account** is named by the options in [`AppSettings::cli_args`](super::AppSettings)
//!   (`--demo`, `--config PATH` when not the default file, `--profile NAME` when not the
//!   default profile), never by its credentials: a token or login given by flag or
//!   environment is left to the environment the command runs in, so a log pasted into a
//!   ticket holds no secret.
//! - **A write's line comes from the request sent** ([`of_request`]): `bind ID IP`,
//!   `refresh-list ID`, `password ID` (which reads the new password from standard input; the
//!   password itself is never printed) and `order PID --client ID [--ip IP] --yes`. The
//!   log's order carries `--yes` because a script has no terminal to confirm on and the
//!   confirmation was given in the dashboard; the palette's preview leaves it out, so the
//!   command asks, as the dashboard does.
//! - **A value the form asks for later** is a placeholder in angle brackets (`<IP>`,
//!   `<CLIENT_ID>`), an option it may leave out in square brackets (`[--ip <IP>]`): the
//!   palette's line is to read; the log's lines are to run.
//! - **The subcommand first**: `proxydash order 11 --client 101 --yes --profile shop`. The
//!   account's options go after what the command does (every subcommand that talks to an
//!   account takes them there), so a line cut at the screen's edge still shows the whole
//!   command and loses only the account's address (issue 45; `y` copies the whole line).
//!   Only `--demo`, an option of the program rather than of the subcommand, goes before.
//! - **Quoting** is POSIX `sh`: an argument with anything but letters, digits and
//!   `_ . / : @ % + = , -` is put in single quotes (a `'` inside as `'\''`).

use crate::api::{IpListFormat, IpListType, Request};
use std::path::Path;

/// The program's name at the start of every line.
pub const PROGRAM: &str = "proxydash";

/// One argument of a command line: a value (quoted as needed) or a placeholder for a value
/// not known yet (shown as it is: `<IP>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Value(String),
    Hole(&'static str),
    /// An option the form may leave out, with its placeholder: `[--ip <IP>]`.
    Optional(&'static str, &'static str),
}

impl Arg {
    pub fn v(value: impl ToString) -> Self {
        Arg::Value(value.to_string())
    }
}

/// `arg` as one word of a POSIX shell.
pub fn quote(arg: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./:@%+=,-".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) {
        return arg.to_owned();
    }
    format!("'{}'", arg.replace('\'', r"'\''"))
}

/// `proxydash ARGS… ACCOUNT…` (see the module docs), each argument quoted.
pub fn line(account: &[String], args: &[Arg]) -> String {
    let mut out = String::from(PROGRAM);
    let (program, subcommand): (Vec<&String>, Vec<&String>) =
        account.iter().partition(|a| *a == "--demo");
    let words = program
        .into_iter()
        .map(|a| quote(a))
        .chain(args.iter().map(|a| match a {
            Arg::Value(v) => quote(v),
            Arg::Hole(h) => format!("<{h}>"),
            Arg::Optional(flag, h) => format!("[{flag} <{h}>]"),
        }))
        .chain(subcommand.into_iter().map(|a| quote(a)));
    for word in words {
        out.push(' ');
        out.push_str(&word);
    }
    out
}

/// The command that sends what `request` sent: a write (an order, a service update), or
/// `None` for what the command line has no single command for (an update that does two
/// things at once, which no form sends).
pub fn of_request(account: &[String], request: &Request) -> Option<String> {
    match request {
        Request::Order { product_id, body } => {
            let mut args = vec![
                Arg::Value("order".into()),
                Arg::v(product_id),
                Arg::v("--client"),
                Arg::v(body.clientid),
            ];
            if let Some(ip) = &body.setip {
                args.extend([Arg::v("--ip"), Arg::v(ip)]);
            }
            args.push(Arg::v("--yes"));
            Some(line(account, &args))
        }
        Request::UpdateService { service_id, update } => {
            let id = Arg::v(service_id);
            let what = (
                update.setip.as_deref(),
                update.update_list,
                update.password.is_some(),
            );
            Some(match what {
                (Some(ip), false, false) => line(account, &[Arg::v("bind"), id, Arg::v(ip)]),
                (None, true, false) => line(account, &[Arg::v("refresh-list"), id]),
                (None, false, true) => line(account, &[Arg::v("password"), id]),
                _ => return None,
            })
        }
        _ => None,
    }
}

/// `proxydash iplist ID --type T --format F [-o FILE]`: the list as served, printed or
/// written to a new file.
pub fn iplist(
    account: &[String],
    service_id: u64,
    list_type: &IpListType,
    format: &IpListFormat,
    file: Option<&Path>,
) -> String {
    let mut args = vec![
        Arg::v("iplist"),
        Arg::v(service_id),
        Arg::v("--type"),
        Arg::v(list_type.as_str()),
        Arg::v("--format"),
        Arg::v(format.as_str()),
    ];
    if let Some(file) = file {
        args.extend([Arg::v("-o"), Arg::v(file.display())]);
    }
    line(account, &args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{OrderRequest, ServiceUpdate};
    use crate::cli::{Cli, Command};

    /// A line as `sh` would split it.
    fn words(line: &str) -> Vec<String> {
        shlex::split(line).unwrap_or_else(|| panic!("not a shell line: {line}"))
    }

    #[test]
    fn quoting_keeps_every_argument_one_word() {
        for arg in [
            "plain-1.2",
            "two words",
            "it's",
            "",
            "$HOME",
            "a\"b",
            "x;rm -rf",
        ] {
            let line = line(&[], &[Arg::v(arg)]);
            assert_eq!(words(&line), [PROGRAM, arg], "{line}");
        }
        assert_eq!(quote("203.0.113.5"), "203.0.113.5");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn the_lines_of_writes_parse_as_the_same_command() {
        let account = vec!["--profile".to_owned(), "shop two".to_owned()];
        let bind = Request::UpdateService {
            service_id: 1001,
            update: Box::new(ServiceUpdate {
                setip: Some("203.0.113.5".into()),
                ..ServiceUpdate::default()
            }),
        };
        let line = of_request(&account, &bind).unwrap();
        // The subcommand first: a line cut at the screen's edge keeps the command whole.
        assert_eq!(line, "proxydash bind 1001 203.0.113.5 --profile 'shop two'");
        let cli = Cli::try_parse_from(words(&line)).unwrap();
        assert!(
            matches!(&cli.command, Some(Command::Bind(b)) if b.id == 1001
                && b.ip.as_deref() == Some("203.0.113.5")
                && b.output.account.profile == ["shop two"])
        );
        // `--demo` (the program's, not the subcommand's) stays before it.
        let demo = of_request(&["--demo".to_owned()], &bind).unwrap();
        assert_eq!(demo, "proxydash --demo bind 1001 203.0.113.5");
        assert!(Cli::try_parse_from(words(&demo)).unwrap().demo);
        let order = Request::order(
            11,
            OrderRequest {
                clientid: 101,
                setip: Some("198.51.100.4".into()),
            },
        );
        let line = of_request(&[], &order).unwrap();
        assert_eq!(
            line,
            "proxydash order 11 --client 101 --ip 198.51.100.4 --yes"
        );
        let cli = Cli::try_parse_from(words(&line)).unwrap();
        assert!(matches!(&cli.command, Some(Command::Order(o))
            if o.pid == 11 && o.client == 101 && o.yes && o.ip.as_deref() == Some("198.51.100.4")));
        for (update, sub) in [
            (
                ServiceUpdate {
                    update_list: true,
                    ..ServiceUpdate::default()
                },
                "refresh-list",
            ),
            (
                ServiceUpdate {
                    password: Some(crate::secret::Secret::new("s3cret-pw")),
                    ..ServiceUpdate::default()
                },
                "password",
            ),
        ] {
            let request = Request::UpdateService {
                service_id: 7,
                update: Box::new(update),
            };
            let line = of_request(&[], &request).unwrap();
            assert_eq!(line, format!("proxydash {sub} 7"));
            assert!(!line.contains("s3cret"));
            assert!(Cli::try_parse_from(words(&line)).is_ok(), "{line}");
        }
        let line = iplist(
            &["--demo".into()],
            1003,
            &IpListType::PprSocks,
            &IpListFormat::Csv,
            Some(Path::new("my list.csv")),
        );
        assert_eq!(
            line,
            "proxydash --demo iplist 1003 --type ppr-socks --format csv -o 'my list.csv'"
        );
        assert!(Cli::try_parse_from(words(&line)).is_ok(), "{line}");
    }
}
