//! Where the word being completed stands on the command line, read with the command tree
//! (`Cli::command_line`): the value of an option (`--profile`, `--client`), a positional
//! argument of a subcommand (`service ID`), or neither; and the profiles and config file
//! the line names so far.

use super::{Ask, What};
use crate::cli::Cli;
use crate::seen::Kind;
use clap::{Arg, Command};

/// The arguments that take an ID, by subcommand (its path of names) and argument ID.
pub const IDS: &[(&str, &str, Kind)] = &[
    ("service", "id", Kind::Services),
    ("bind", "id", Kind::Services),
    ("password", "id", Kind::Services),
    ("refresh-list", "id", Kind::Services),
    ("iplist", "id", Kind::Services),
    ("probe", "id", Kind::Services),
    ("stats", "id", Kind::Services),
    ("rate", "id", Kind::Services),
    ("network", "id", Kind::Services),
    ("watch", "keep_bound", Kind::Services),
    ("alerts silence", "service", Kind::Services),
    ("invoice", "id", Kind::Invoices),
    ("product", "pid", Kind::Products),
    ("order", "pid", Kind::Products),
    ("order", "client", Kind::Clients),
];

/// The arguments that name an account profile.
const PROFILE_ARGS: [&str; 2] = ["profile", "alerts_profile"];

/// What the last of `words` (the program's name first) is completed with, and what the
/// line named before it; `None` where neither a profile nor an ID goes.
pub fn at(words: &[String]) -> Option<(What, Ask)> {
    let (current, before) = words.split_last()?;
    let mut tree = Cli::command_line();
    tree.build();
    let mut line = Line::new(&tree);
    for word in before.iter().skip(1) {
        line.take(word);
    }
    let mut ask = Ask {
        profiles: line.profiles,
        config: line.config,
        prefix: String::new(),
    };
    let arg = if let Some(arg) = line.pending {
        if current == "=" {
            // bash splits `--profile=` at the `=`: the candidates replace that word.
            ask.prefix = "=".to_owned();
        }
        arg
    } else if let Some((name, _)) = current.strip_prefix("--").and_then(|w| w.split_once('=')) {
        ask.prefix = format!("--{name}=");
        long(line.node, name)?
    } else if current.starts_with('-') && current != "-" {
        return None;
    } else {
        line.node.get_positionals().nth(line.positionals)?
    };
    Some((what(&line.path.join(" "), arg)?, ask))
}

/// What an argument of the subcommand at `path` is completed with.
fn what(path: &str, arg: &Arg) -> Option<What> {
    let id = arg.get_id().as_str();
    if PROFILE_ARGS.contains(&id) {
        return Some(What::Profiles);
    }
    IDS.iter()
        .find(|(p, a, _)| *p == path && *a == id)
        .map(|(_, _, kind)| What::Ids(*kind))
}

/// The line read word by word: the subcommand reached, the positional arguments given to
/// it, an option waiting for its value, and the profiles and config file named.
struct Line<'a> {
    node: &'a Command,
    path: Vec<&'a str>,
    positionals: usize,
    pending: Option<&'a Arg>,
    /// After `--`: every word is a positional argument.
    rest: bool,
    profiles: Vec<String>,
    config: Option<String>,
}

impl<'a> Line<'a> {
    fn new(tree: &'a Command) -> Self {
        Self {
            node: tree,
            path: Vec::new(),
            positionals: 0,
            pending: None,
            rest: false,
            profiles: Vec::new(),
            config: None,
        }
    }

    fn take(&mut self, word: &str) {
        if let Some(arg) = self.pending {
            if word == "=" {
                return;
            }
            let more = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
            if !(more && word.starts_with('-')) {
                self.value(arg, word);
                // An option of several values (`--keep-bound 1 2`) takes the next too.
                self.pending = more.then_some(arg);
                return;
            }
            self.pending = None;
        }
        if self.rest || !word.starts_with('-') || word == "-" {
            match self.node.find_subcommand(word).filter(|_| !self.rest) {
                Some(sub) => {
                    self.node = sub;
                    self.path.push(sub.get_name());
                    self.positionals = 0;
                }
                None => self.positionals += 1,
            }
        } else if word == "--" {
            self.rest = true;
        } else if let Some(option) = word.strip_prefix("--") {
            let (name, value) = match option.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (option, None),
            };
            if let Some(arg) = long(self.node, name).filter(|a| takes_value(a)) {
                match value {
                    Some(value) => self.value(arg, value),
                    None => self.pending = Some(arg),
                }
            }
        } else {
            let mut chars = word[1..].chars();
            let short = chars.next().and_then(|c| {
                self.node
                    .get_arguments()
                    .find(|a| a.get_short() == Some(c) && takes_value(a))
            });
            if let Some(arg) = short {
                match chars.as_str() {
                    "" => self.pending = Some(arg),
                    value => self.value(arg, value),
                }
            }
        }
    }

    /// Notes a value of `arg` the completion needs: a profile, the config file.
    fn value(&mut self, arg: &Arg, value: &str) {
        let id = arg.get_id().as_str();
        if PROFILE_ARGS.contains(&id) {
            self.profiles.push(value.to_owned());
        } else if id == "config" {
            self.config = Some(value.to_owned());
        }
    }
}

/// The option `--name` of `node` (or one of its aliases).
fn long<'a>(node: &'a Command, name: &str) -> Option<&'a Arg> {
    node.get_arguments().find(|a| {
        a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|al| al.contains(&name))
    })
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

#[cfg(test)]
#[path = "position_tests.rs"]
mod tests;
