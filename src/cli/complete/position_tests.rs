use super::{IDS, at};
use crate::cli::complete::What;
use crate::seen::Kind;

fn words(line: &str) -> Vec<String> {
    let mut w: Vec<String> = line.split(' ').map(str::to_owned).collect();
    if line.ends_with(' ') {
        w.pop();
        w.push(String::new());
    }
    w
}

fn what(line: &str) -> Option<What> {
    at(&words(line)).map(|(w, _)| w)
}

#[test]
fn ids_and_profiles_are_found_where_they_go() {
    let services = Some(What::Ids(Kind::Services));
    assert_eq!(what("proxydash service "), services);
    assert_eq!(what("proxydash service 10"), services);
    assert_eq!(what("proxydash --profile shop bind "), services);
    assert_eq!(what("proxydash probe --type http-ip 10"), services);
    assert_eq!(what("proxydash iplist -o list.txt "), services);
    assert_eq!(what("proxydash watch --keep-bound 1001 "), services);
    assert_eq!(what("proxydash alerts silence --service "), services);
    assert_eq!(what("proxydash order "), Some(What::Ids(Kind::Products)));
    assert_eq!(
        what("proxydash order 11 --client "),
        Some(What::Ids(Kind::Clients))
    );
    assert_eq!(what("proxydash invoice "), Some(What::Ids(Kind::Invoices)));
    assert_eq!(what("proxydash --profile "), Some(What::Profiles));
    assert_eq!(what("proxydash services --profile "), Some(What::Profiles));
    assert_eq!(what("proxydash alerts --profile "), Some(What::Profiles));
    assert_eq!(
        what("proxydash history export --profile m"),
        Some(What::Profiles)
    );
}

#[test]
fn elsewhere_the_static_script_completes() {
    for line in [
        "proxydash ",
        "proxydash serv",
        "proxydash service --",
        "proxydash service 1001 ",
        "proxydash bind 1001 ",
        "proxydash services ",
        "proxydash alerts ack ",
        "proxydash probe 1001 --type ",
    ] {
        assert_eq!(what(line), None, "{line:?}");
    }
}

#[test]
fn the_line_names_profiles_and_the_config_file_and_a_word_may_hold_its_option() {
    let (w, ask) = at(&words(
        "proxydash --profile a --config=/c.toml service --profile=b ",
    ))
    .unwrap();
    assert_eq!(w, What::Ids(Kind::Services));
    assert_eq!(
        (ask.profiles, ask.config.as_deref()),
        (vec!["a".to_owned(), "b".to_owned()], Some("/c.toml"))
    );
    let (w, ask) = at(&words("proxydash --profile=sh")).unwrap();
    assert_eq!((w, ask.prefix.as_str()), (What::Profiles, "--profile="));
    // bash splits `--profile=` at the `=`.
    let (w, ask) = at(&words("proxydash --profile = ")).unwrap();
    assert_eq!((w, ask.prefix.as_str()), (What::Profiles, ""));
    let (_, ask) = at(&words("proxydash --profile =")).unwrap();
    assert_eq!(ask.prefix, "=");
}

/// Every argument that takes a service, product, invoice or client ID is completed (a new
/// one must be added to `IDS`, or here with why not).
#[test]
fn every_id_argument_of_the_command_tree_is_completed() {
    // Alert IDs are not kept by the completion (they are `rule:subject` strings).
    const NOT: [(&str, &str); 2] = [("alerts ack", "id"), ("alerts unsilence", "id")];
    let mut tree = crate::cli::Cli::command_line();
    tree.build();
    let mut found = Vec::new();
    fn walk(c: &clap::Command, path: &str, found: &mut Vec<(String, String)>) {
        for arg in c.get_arguments() {
            let names = arg.get_value_names().unwrap_or_default();
            if names
                .iter()
                .any(|n| ["ID", "PID", "SERVICE"].contains(&n.as_str()))
            {
                found.push((path.to_owned(), arg.get_id().to_string()));
            }
        }
        for sub in c.get_subcommands() {
            let path = format!("{path} {}", sub.get_name());
            walk(sub, path.trim(), found);
        }
    }
    walk(&tree, "", &mut found);
    assert!(found.len() >= IDS.len(), "{found:?}");
    for (path, id) in &found {
        let known = IDS.iter().any(|(p, a, _)| p == path && a == id)
            || NOT.iter().any(|(p, a)| p == path && a == id);
        assert!(known, "`{path}` {id} takes an ID but is not completed");
    }
    for (p, a, _) in IDS {
        assert!(
            found.iter().any(|(path, id)| path == p && id == a),
            "{p} {a} is not in the tree"
        );
    }
}
