//! `:` verbs, as in k9s and vim: a query whose first word is a verb's name is that verb,
//! listed first in the palette (the fuzzy matches stay below it) and run by Enter.
//!
//! | verb | does |
//! |---|---|
//! | `q`, `quit` | quit, as `q` does |
//! | `svc ID`, `service ID` | the service's row selected and its detail opened |
//! | `product ID` | the product's row and detail |
//! | `invoice ID` | the invoice's row and the invoice |
//! | `order ID` | the order form on product ID |
//! | `bind ID` | the bind form on service ID |
//! | `profile NAME` | switch to the profile, as `P` does |
//! | `all` | over several accounts: the All view |
//! | `refresh` | refresh this tab, as `r` does |
//! | `theme dark\|light\|plain` | the look, at once, for this run |
//!
//! A verb runs through the path of its key (the same form, confirmation and refusals);
//! one with a missing or wrong argument is listed with what it needs, and Enter on it
//! says so and keeps the query. [`VERBS`] is the one list: the palette's help line and
//! the README's table are held to it by a test.

use super::Act;
use super::candidates::{Candidate, Kind, Target};
use crate::config::Look;

/// What a verb takes after its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    Nothing,
    /// A number: a service, product or invoice ID.
    Id(&'static str),
    /// A word: a profile or a theme.
    Word(&'static str),
}

/// One verb: its names, what it takes, and what it does in words.
#[derive(Clone, Copy, Debug)]
pub struct Verb {
    pub names: &'static [&'static str],
    pub takes: Takes,
    pub does: &'static str,
}

/// Every verb, in the order the help lists them.
pub const VERBS: &[Verb] = &[
    Verb {
        names: &["q", "quit"],
        takes: Takes::Nothing,
        does: "quit",
    },
    Verb {
        names: &["svc", "service"],
        takes: Takes::Id("service"),
        does: "open the service",
    },
    Verb {
        names: &["product"],
        takes: Takes::Id("product"),
        does: "open the product",
    },
    Verb {
        names: &["invoice"],
        takes: Takes::Id("invoice"),
        does: "open the invoice",
    },
    Verb {
        names: &["order"],
        takes: Takes::Id("product"),
        does: "order the product",
    },
    Verb {
        names: &["bind"],
        takes: Takes::Id("service"),
        does: "bind an IP to the service",
    },
    Verb {
        names: &["profile"],
        takes: Takes::Word("profile"),
        does: "switch to the profile",
    },
    Verb {
        names: &["all"],
        takes: Takes::Nothing,
        does: "every account (the All view)",
    },
    Verb {
        names: &["refresh"],
        takes: Takes::Nothing,
        does: "refresh this tab",
    },
    Verb {
        names: &["theme"],
        takes: Takes::Word("dark|light|plain"),
        does: "the look",
    },
];

/// What the palette knows when it parses: the profiles of the config file, and whether
/// several accounts are in one view.
pub struct Known<'a> {
    pub profiles: &'a [String],
    pub among_accounts: bool,
    /// The user's skins read at start, by name, in the settings' order.
    pub skins: &'a [String],
}

/// The verb `query` names, and whether it goes first: a verb that reads goes first; one
/// missing its argument or given a wrong one goes last, saying what it needs (`bind` and
/// `refresh this tab` are also searches: the matches keep Enter); `None` when the first
/// word is no verb's name (the query is a search).
pub fn candidate(query: &str, known: &Known<'_>) -> Option<(Candidate, bool)> {
    let mut words = query.split_whitespace();
    let first = words.next()?.trim_start_matches(':');
    let verb = VERBS
        .iter()
        .find(|v| v.names.iter().any(|n| n.eq_ignore_ascii_case(first)))?;
    let arg: Vec<&str> = words.collect();
    let name = verb.names[0];
    let parsed = target(verb, &arg, known);
    let first = parsed.is_ok();
    let (target, text) = match parsed {
        Ok(target) => {
            let shown = if arg.is_empty() {
                format!(":{name}")
            } else {
                format!(":{name} {}", arg.join(" "))
            };
            (target, format!("{shown}  {}", verb.does))
        }
        Err(why) => (Target::Say(why.clone()), format!(":{name}  {why}")),
    };
    let candidate = Candidate {
        kind: Kind::Verb,
        target,
        text: crate::text::sanitize(&text).into_owned(),
        note: String::new(),
        command: None,
    };
    Some((candidate, first))
}

/// Where the verb goes with these arguments, or what it needs.
fn target(verb: &Verb, arg: &[&str], known: &Known<'_>) -> Result<Target, String> {
    let name = verb.names[0];
    let usage = match verb.takes {
        Takes::Nothing => format!(":{name}"),
        Takes::Id(what) => format!(":{name} {}-ID", what.to_uppercase()),
        Takes::Word(what) => format!(":{name} {what}"),
    };
    let id = || match arg {
        [n] => n
            .parse::<u64>()
            .map_err(|_| format!("{n:?} is not an ID: {usage}")),
        _ => Err(format!("needs one ID: {usage}")),
    };
    let nothing = |t: Target| match arg {
        [] => Ok(t),
        _ => Err(format!("takes nothing: {usage}")),
    };
    match name {
        "q" => nothing(Target::Action(Act::Quit)),
        "svc" => Ok(Target::Action(Act::ServiceDetail(id()?))),
        "product" => Ok(Target::Action(Act::ProductDetail(id()?))),
        "invoice" => Ok(Target::Action(Act::InvoiceDetail(id()?))),
        "order" => Ok(Target::Action(Act::Order(id()?))),
        "bind" => Ok(Target::Action(Act::Bind(id()?))),
        "refresh" => nothing(Target::Action(Act::Refresh)),
        "all" if known.among_accounts => nothing(Target::Action(Act::AllAccounts)),
        "all" => Err(
            "one account is open: start with several profiles (--all-profiles) for the All view"
                .into(),
        ),
        "profile" => match arg {
            [p] if known.profiles.iter().any(|k| k == p) => Ok(Target::Profile((*p).to_owned())),
            [p] => Err(format!(
                "no profile {p:?} in the config file{}",
                if known.profiles.is_empty() {
                    String::new()
                } else {
                    format!(" (it has {})", known.profiles.join(", "))
                }
            )),
            _ => Err(format!("needs a profile's name: {usage}")),
        },
        "theme" => match arg {
            [t] => match t.to_ascii_lowercase().as_str() {
                "dark" => Ok(Target::Theme(Look::Dark)),
                "light" => Ok(Target::Theme(Look::Light)),
                "plain" => Ok(Target::Theme(Look::Plain)),
                _ => match known.skins.iter().position(|s| s == t) {
                    Some(i) => Ok(Target::Theme(Look::Skin(i))),
                    None if known.skins.is_empty() => Err(format!(
                        "no theme {t:?}: {usage} (or a skin in themes/ beside the config file)"
                    )),
                    None => Err(format!(
                        "no theme {t:?}: {usage}, or a skin: {}",
                        known.skins.join(", ")
                    )),
                },
            },
            _ => Err(format!("needs a theme: {usage}")),
        },
        _ => Err(format!("unknown verb: {usage}")),
    }
}

/// The verbs in one line, for the palette's help: `:q  :svc ID  :product ID …`.
pub fn summary() -> String {
    VERBS
        .iter()
        .map(|v| match v.takes {
            Takes::Nothing => format!(":{}", v.names[0]),
            Takes::Id(_) => format!(":{} ID", v.names[0]),
            Takes::Word(w) if w.contains('|') => format!(":{} {w}", v.names[0]),
            Takes::Word(w) => format!(":{} {}", v.names[0], w.to_uppercase()),
        })
        .collect::<Vec<_>>()
        .join("  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Known<'static> {
        static PROFILES: std::sync::LazyLock<Vec<String>> =
            std::sync::LazyLock::new(|| vec!["work".to_owned(), "shop".to_owned()]);
        static SKINS: std::sync::LazyLock<Vec<String>> =
            std::sync::LazyLock::new(|| vec!["gruvbox".to_owned()]);
        Known {
            profiles: &PROFILES,
            among_accounts: false,
            skins: &SKINS,
        }
    }

    fn target_of(q: &str) -> Option<Target> {
        candidate(q, &known()).map(|(c, _)| c.target)
    }

    #[test]
    fn each_verb_reads_its_argument_and_says_what_it_needs() {
        assert_eq!(target_of("q"), Some(Target::Action(Act::Quit)));
        assert_eq!(target_of(":quit"), Some(Target::Action(Act::Quit)));
        assert_eq!(
            target_of("svc 1003"),
            Some(Target::Action(Act::ServiceDetail(1003)))
        );
        assert_eq!(
            target_of("SVC 1003"),
            Some(Target::Action(Act::ServiceDetail(1003)))
        );
        assert_eq!(
            target_of("invoice 7015"),
            Some(Target::Action(Act::InvoiceDetail(7015)))
        );
        assert_eq!(target_of("order 11"), Some(Target::Action(Act::Order(11))));
        assert_eq!(
            target_of("bind 1003"),
            Some(Target::Action(Act::Bind(1003)))
        );
        assert_eq!(
            target_of("profile shop"),
            Some(Target::Profile("shop".into()))
        );
        assert_eq!(target_of("theme light"), Some(Target::Theme(Look::Light)));
        assert_eq!(
            target_of("theme gruvbox"),
            Some(Target::Theme(Look::Skin(0)))
        );
        assert_eq!(target_of("refresh"), Some(Target::Action(Act::Refresh)));
        // Not a verb: a search.
        assert_eq!(target_of("datacenter"), None);
        assert_eq!(target_of("1003"), None);
        // A verb with a wrong argument says what it needs.
        let say = |q: &str| match target_of(q) {
            Some(Target::Say(why)) => why,
            other => panic!("{q}: {other:?}"),
        };
        assert_eq!(say("svc"), "needs one ID: :svc SERVICE-ID");
        assert_eq!(say("svc abc"), "\"abc\" is not an ID: :svc SERVICE-ID");
        assert_eq!(say("q now"), "takes nothing: :q");
        assert!(say("profile home").contains("(it has work, shop)"));
        assert!(say("theme neon").starts_with("no theme \"neon\""));
        assert!(say("theme neon").ends_with("or a skin: gruvbox"));
        assert!(say("all").contains("--all-profiles"));
        // Only a verb as typed goes first: `bind` alone is also a search.
        assert_eq!(
            candidate("bind", &known()).map(|(_, first)| first),
            Some(false)
        );
        assert_eq!(
            candidate("bind 1", &known()).map(|(_, first)| first),
            Some(true)
        );
        assert_eq!(candidate("q", &known()).map(|(_, first)| first), Some(true));
        assert_eq!(
            candidate("refresh this tab", &known()).map(|(_, first)| first),
            Some(false)
        );
    }

    #[test]
    fn the_summary_lists_every_verb() {
        let s = summary();
        for v in VERBS {
            assert!(s.contains(&format!(":{}", v.names[0])), "{s}");
        }
    }
}

/// The README's table of verbs lists every verb (one list: [`VERBS`]).
#[cfg(test)]
#[test]
fn the_readme_lists_every_verb() {
    let readme = include_str!("../../../README.md");
    for v in VERBS {
        assert!(
            readme.contains(&format!("| `:{}", v.names[0])),
            ":{} missing from the README's verbs",
            v.names[0]
        );
    }
}
