//! Tests of [`super`]: reading actions, filling placeholders.

use super::*;

fn action(text: &str) -> Result<UserAction, String> {
    let value: toml::Value = toml::from_str(text).unwrap();
    let (good, bad) = read(&[("config.toml line 3".into(), value)]);
    good.into_iter().next().ok_or_else(|| bad.join("; "))
}

#[test]
fn an_action_reads_with_its_defaults() {
    let a = action(
        "key = \"X\"\ndescription = \"Push\"\ncommand = [\"pm\", \"push\", \"{service_id}\"]\n",
    )
    .unwrap();
    assert_eq!(
        a.key,
        Key {
            ch: 'X',
            ctrl: false
        }
    );
    assert_eq!(a.tabs, vec![0]);
    assert!(a.background && !a.confirm && !a.secrets && !a.writes);
    assert!(a.uses("service_id"));
    let a = action(
        "key = \"ctrl-o\"\ntabs = [\"Billing\", \"alerts\"]\ndescription = \"d\"\ncommand = [\"x\"]\n",
    )
    .unwrap();
    assert_eq!(a.key.to_string(), "Ctrl-O");
    assert_eq!(a.tabs, vec![2, 5]);
}

#[test]
fn a_bad_action_says_why_and_where() {
    let why = |t: &str| action(t).unwrap_err();
    let base = "key = \"X\"\ndescription = \"d\"\n";
    assert!(
        why(&format!("{base}command = [\"x\", \"{{pasword}}\"]"))
            .contains("no placeholder {pasword}")
    );
    assert!(
        why(&format!("{base}command = [\"x\", \"{{password}}\"]"))
            .contains("{password} needs secrets = true")
    );
    assert!(why(&format!("{base}command = []")).contains("command is empty"));
    assert!(
        why("key = \"XY\"\ndescription = \"d\"\ncommand = [\"x\"]").contains("not one character")
    );
    assert!(
        why(&format!("{base}command = [\"x\"]\ntabs = [\"home\"]")).contains("no tab \"home\"")
    );
    assert!(why(&format!("{base}command = [\"x\"]\nshell = true")).contains("unknown field"));
    assert!(why(&format!("{base}command = [\"x\", \"{{service_id\"]")).contains("does not close"));
    assert!(
        why(&format!("{base}command = [\"x\"]\nbackground = 1"))
            .starts_with("action at config.toml line 3: ")
    );
}

#[test]
fn filling_keeps_each_value_inside_its_argument() {
    let value = |name: &str| match name {
        "service_id" => Some("1003".to_owned()),
        "product_name" => Some("Static; rm -rf / $(reboot)".to_owned()),
        "status" => Some("Active\nrm -rf /".to_owned()),
        _ => None,
    };
    assert_eq!(fill("--id={service_id}", &value).unwrap(), "--id=1003");
    // A hostile name stays one argument, as it is: no shell sees it.
    assert_eq!(
        fill("{product_name}", &value).unwrap(),
        "Static; rm -rf / $(reboot)"
    );
    assert!(
        fill("{status}", &value)
            .unwrap_err()
            .contains("control character")
    );
    assert!(
        fill("{due}", &value)
            .unwrap_err()
            .contains("not known for this row")
    );
    assert_eq!(fill("{{literal}}", &value).unwrap(), "{literal}");
}
