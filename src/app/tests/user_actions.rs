//! Issue 47.1: your own actions, driven through `App::update`: the key fills the
//! placeholders from the highlighted row into one argument each, asks when it says so,
//! fetches the IP list for `{iplist_file}`, refuses a hostile value and a write on a
//! read-only profile, and is listed in `?`, the footer and the palette.

use crate::api::*;
use crate::app::popups::Popup;
use crate::app::user_actions::Run;
use crate::app::{AppSettings, Command};
use crate::config::actions::{self, UserAction};
use crate::testkit::*;
use crossterm::event::KeyCode;

fn action(text: &str) -> UserAction {
    let value: toml::Value = toml::from_str(text).unwrap();
    let (mut good, bad) = actions::read(&[("config.toml line 7".into(), value)]);
    assert!(bad.is_empty(), "{bad:?}");
    good.remove(0)
}

fn with(list: Vec<UserAction>, read_only: bool) -> Harness {
    let (actions, said) = crate::app::user_actions::check_keys(list);
    assert!(said.is_empty(), "{said:?}");
    let mut h = Harness::with(AppSettings {
        actions,
        read_only,
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    h
}

fn runs(cmds: &[Command]) -> Vec<Run> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::RunAction(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

const PUSH: &str = "key = \"X\"\ndescription = \"Push\"\ncommand = [\"pm\", \"push\", \"--id={service_id}\", \"{product_name}\", \"{profile}\"]\n";

#[test]
fn the_key_runs_the_command_with_the_rows_values_one_argument_each() {
    let mut h = with(vec![action(PUSH)], false);
    let cmds = h.key('X');
    assert_eq!(
        runs(&cmds),
        [Run {
            name: "Push".into(),
            argv: ["pm", "push", "--id=5001", "Static US 25", "work"]
                .map(String::from)
                .to_vec(),
            background: true,
            iplist: None,
        }]
    );
    assert!(
        h.status_text()
            .starts_with("Push: running pm push --id=5001 'Static US 25' work")
    );
    // Its end goes to the status line and `m`.
    h.send(crate::app::Msg::ActionDone {
        name: "Push".into(),
        result: Ok(crate::effects::user_action::Ended {
            code: Some(0),
            lines: vec!["pushed 25 proxies".into()],
            timed_out: false,
        }),
    });
    assert_eq!(h.status_text(), "Push: done: pushed 25 proxies");
    // Not on a tab it does not name.
    h.key('3');
    assert!(runs(&h.key('X')).is_empty());
}

#[test]
fn confirm_asks_first_and_esc_runs_nothing() {
    let mut h = with(vec![action(&format!("{PUSH}confirm = true\n"))], false);
    assert!(runs(&h.key('X')).is_empty());
    assert!(
        matches!(h.top(), Some(Popup::ConfirmRun(_))),
        "{:?}",
        h.top()
    );
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
    h.key('X');
    let cmds = h.code(KeyCode::Enter);
    assert_eq!(runs(&cmds).len(), 1);
    assert!(h.app.popups().is_empty());
}

#[test]
fn a_hostile_value_refuses_the_run_and_a_write_is_refused_read_only() {
    // The server put a line break in the product's name.
    let mut h = with(vec![action(PUSH)], false);
    let mut list = services();
    list[0].product_name = "Static\nrm -rf /".into();
    h.ok(Request::Services, Response::Services(list));
    let cmds = h.key('X');
    assert!(runs(&cmds).is_empty());
    assert_eq!(
        h.status_text(),
        "Push: not run: {product_name} holds a control character (a line break, an escape)"
    );
    let mut h = with(vec![action(&format!("{PUSH}writes = true\n"))], true);
    assert!(runs(&h.key('X')).is_empty());
    assert!(h.status_text().contains("read-only"), "{}", h.status_text());
}

#[test]
fn iplist_file_fetches_the_list_first() {
    let mut h = with(
        vec![action(
            "key = \"X\"\ndescription = \"Save\"\ncommand = [\"cp\", \"{iplist_file}\", \"/tmp/x\"]\n",
        )],
        false,
    );
    let sent = fetches(&h.key('X'));
    let expected = Request::ip_list(5001, IpListType::HttpAuth, IpListFormat::Txt);
    assert_eq!(sent, vec![expected.clone()]);
    let cmds = h.ok(
        expected,
        Response::IpList(IpList::parse(
            IpListType::HttpAuth,
            IpListFormat::Txt,
            "10.0.0.1:8000:u:p\n".into(),
        )),
    );
    let run = runs(&cmds).remove(0);
    assert_eq!(run.argv, ["cp", "{iplist_file}", "/tmp/x"]);
    assert_eq!(run.iplist.as_deref(), Some("10.0.0.1:8000:u:p\n"));
    assert!(h.app.popups().is_empty());
}

#[test]
fn a_key_the_tab_uses_is_left_out_and_said() {
    let (kept, said) = crate::app::user_actions::check_keys(vec![action(
        "key = \"b\"\ntabs = [\"services\", \"network\"]\ndescription = \"B\"\ncommand = [\"x\"]\n",
    )]);
    assert_eq!(kept[0].tabs, vec![3], "kept on Network only");
    assert_eq!(said.len(), 1);
    assert_eq!(
        said[0],
        "action at config.toml line 7: key b is taken on Services (Bind an IP to the selected static (fpr) service); left out there"
    );
}

#[test]
fn the_actions_are_in_help_the_footer_and_the_palette() {
    let mut h = with(vec![action(PUSH)], false);
    let wide = crate::ui::tests::render(&mut h.app, 200, 50);
    let footer = wide.lines().last().unwrap();
    assert!(footer.contains("X Push"), "{footer}");
    h.key('?');
    let help = crate::ui::tests::render(&mut h.app, 120, 50);
    assert!(help.contains("Your actions"), "{help}");
    assert!(
        help.contains("X  Push  $ pm push --id={service_id} {product_name} {profile}"),
        "{help}"
    );
    h.code(KeyCode::Esc);
    h.key(':');
    h.keys("push");
    let palette = crate::ui::tests::render(&mut h.app, 160, 40);
    assert!(palette.contains("Push"), "{palette}");
    let cmds = h.code(KeyCode::Enter);
    assert_eq!(runs(&cmds).len(), 1, "{cmds:?}");
}

/// The tabs an action names are the dashboard's, in its order.
#[test]
fn the_tabs_an_action_names_are_the_dashboards() {
    let titles: Vec<String> = crate::app::tabs::Tab::ALL
        .iter()
        .map(|t| t.title().to_lowercase())
        .collect();
    assert_eq!(titles, actions::TABS);
}
