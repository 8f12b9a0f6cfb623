//! Precedence of flags, profile and defaults; the environment layer is tested through the
//! binary in `tests/config.rs`, since it is process-wide.

use super::*;
use crate::cli::Cli;
use std::path::Path;

fn temp_config(name: &str, text: &str, mode: u32) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-config-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        // Whatever the umask: a folder others can write would refuse the commands.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    path
}

#[cfg(unix)]
#[test]
fn commands_from_a_file_or_folder_others_can_write_are_refused_with_the_fix() {
    use std::os::unix::fs::PermissionsExt;
    let token = "[profiles.p]\nbase_url = \"https://x\"\ntoken_command = \"echo t\"\n";
    let path = temp_config("writable", token, 0o666);
    let e = Settings::resolve(&parse(&path, &[]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("refusing to run token_command"), "{e}");
    assert!(e.contains(&format!("chmod go-w {}", path.display())), "{e}");
    // The file fixed, its folder writable by the group.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let dir = path.parent().unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o770)).unwrap();
    let e = Settings::resolve(&parse(&path, &[]))
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("chmod go-w {}", dir.display())), "{e}");
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert!(Settings::resolve(&parse(&path, &[])).is_ok());
    // on_alert, in a profile's alerts, is a command too.
    let alert = "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\n[profiles.p.alerts]\non_alert = \"true\"\n";
    let path = temp_config("writable-alert", alert, 0o620);
    let e = Settings::resolve(&parse(&path, &[]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("refusing to run on_alert"), "{e}");
    // Without a command the same modes only draw the usual warnings.
    let plain = temp_config(
        "writable-plain",
        "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\n",
        0o666,
    );
    assert!(Settings::resolve(&parse(&plain, &[])).is_ok());
}

/// Parses flags with no PROXYDASH_* variable able to leak in from the test's environment:
/// every connection value the tests rely on is given explicitly or checked against the file.
fn parse(config: &Path, args: &[&str]) -> Cli {
    let mut all = vec!["proxydash", "--config", config.to_str().unwrap()];
    all.extend_from_slice(args);
    Cli::try_parse_from(all).unwrap()
}

const TWO_PROFILES: &str = r#"
default_profile = "main"
[profiles.main]
base_url = "https://main.example"
token = "main-token"
refresh = 10
theme = "light"
clipboard = "osc52"
server_timezone = "Europe/Berlin"
[profiles.monitor]
base_url = "https://monitor.example"
login = "watcher"
password = "pw"
separator = "|"
read_only = true
"#;

#[test]
fn the_profile_fills_what_flags_leave_open() {
    let path = temp_config("profile", TWO_PROFILES, 0o600);
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.profile, "main");
    assert_eq!(s.base_url, "https://main.example");
    assert_eq!(s.credentials, Credentials::Token("main-token".into()));
    assert_eq!(s.refresh, Some(Duration::from_secs(10)));
    assert_eq!(s.theme, ThemeName::Light);
    assert_eq!(s.clipboard, ClipboardMode::Osc52);
    assert!(matches!(s.server_zone, ServerZone::Named(_)));
    assert_eq!(s.profiles, vec!["main", "monitor"]);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert!(!format!("{s:?}").contains("main-token"));
}

#[test]
fn flags_beat_the_profile_and_defaults_fill_the_rest() {
    let path = temp_config("flags", TWO_PROFILES, 0o600);
    let cli = parse(
        &path,
        &[
            "--token",
            "flag-token",
            "--refresh",
            "0",
            "--theme",
            "dark",
            "--base-url",
            "https://flag.example",
        ],
    );
    let s = Settings::resolve(&cli).unwrap();
    assert_eq!(s.credentials, Credentials::Token("flag-token".into()));
    assert_eq!(s.base_url, "https://flag.example");
    assert_eq!(s.refresh, None);
    assert_eq!(s.theme, ThemeName::Dark);
    assert_eq!(s.request_timeout, Duration::from_secs(DEFAULT_TIMEOUT_SECS));
    assert_eq!(
        s.connect_timeout,
        Duration::from_secs(DEFAULT_CONNECT_TIMEOUT_SECS)
    );
}

#[test]
fn a_named_profile_with_login_and_separator() {
    let path = temp_config("named", TWO_PROFILES, 0o600);
    let s = Settings::resolve(&parse(&path, &["--profile", "monitor"])).unwrap();
    assert!(s.read_only);
    assert_eq!(
        s.credentials,
        Credentials::Login {
            login: "watcher".into(),
            password: "pw".into(),
            separator: "|".into()
        }
    );
    let err = Settings::resolve(&parse(&path, &["--profile", "nope"])).unwrap_err();
    assert!(err.to_string().contains("main, monitor"), "{err}");
}

#[test]
fn token_command_supplies_the_token() {
    let path = temp_config(
        "command",
        "[profiles.p]\nbase_url = \"https://x.example\"\ntoken_command = \"printf 'from-command\\\\n'\"\n",
        0o600,
    );
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.credentials, Credentials::Token("from-command".into()));
    let failing = temp_config(
        "failing",
        "[profiles.p]\nbase_url = \"https://x.example\"\ntoken_command = \"exit 4\"\n",
        0o600,
    );
    let err = Settings::resolve(&parse(&failing, &[])).unwrap_err();
    assert!(
        err.to_string() == "profiles.p.token_command failed: exit 4",
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_secret_readable_by_others_is_warned_about() {
    let path = temp_config("perm", TWO_PROFILES, 0o644);
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.warnings.len(), 1);
    assert!(
        s.warnings[0].contains(&format!("chmod 600 {}", path.display())),
        "{:?}",
        s.warnings
    );
    // Without a secret in it, the same mode is fine.
    let path = temp_config(
        "perm-ok",
        "[profiles.p]\nbase_url = \"https://x\"\ntoken_command = \"echo t\"\n",
        0o644,
    );
    assert!(
        Settings::resolve(&parse(&path, &[]))
            .unwrap()
            .warnings
            .is_empty()
    );
}

#[test]
fn a_named_config_file_must_exist() {
    let missing = std::env::temp_dir().join("proxydash-no-such-dir/config.toml");
    let err = Settings::resolve(&parse(&missing, &["--token", "t"])).unwrap_err();
    assert!(err.to_string().contains("no config file"), "{err}");
}

#[test]
fn bad_values_name_their_key() {
    let path = temp_config(
        "bad",
        "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\ntheme = \"../neon\"\n",
        0o600,
    );
    let err = Settings::resolve(&parse(&path, &[])).unwrap_err();
    assert!(err.to_string().starts_with("theme:"), "{err}");
}

/// A theme that is not built in names a skin of the user's (read when the dashboard
/// starts, where a missing or bad file is said and the dark theme used).
#[test]
fn a_theme_not_built_in_is_a_skins_name() {
    let path = temp_config(
        "skin",
        "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\ntheme = \"gruvbox\"\n",
        0o600,
    );
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.theme, ThemeName::Skin("gruvbox".into()));
}

#[test]
fn probe_rotation_sets_the_audits_asks_within_its_bounds() {
    let base = "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\n";
    let path = temp_config("rotation", &format!("{base}probe_rotation = 50\n"), 0o600);
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.probe.rotation_asks, 50);
    let path = temp_config("rotation-default", base, 0o600);
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.probe.rotation_asks, 20);
    let path = temp_config(
        "rotation-bad",
        &format!("{base}probe_rotation = 1000\n"),
        0o600,
    );
    let err = Settings::resolve(&parse(&path, &[]))
        .unwrap_err()
        .to_string();
    assert_eq!(err, "probe_rotation: must be 2 to 100");
}

/// Issue 49: `watch`'s rounds are off unless `probe_every` says, and their bounds read
/// within limits, each bad value naming its key.
#[test]
fn probe_rounds_are_off_by_default_and_their_keys_are_bounded() {
    let base = "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\n";
    let path = temp_config("rounds-default", base, 0o600);
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.probe.every, None);
    assert_eq!(s.probe.sample, crate::config::DEFAULT_SAMPLE);
    assert_eq!(s.probe.timeout, crate::probe::DEFAULT_TIMEOUT);
    assert_eq!(s.alert_rules.probe_alive_percent, 50.0);
    let set = "probe_every = \"1h30m\"\nprobe_sample = 5\nprobe_timeout = 2\n\
               [profiles.p.alerts]\nprobe_alive_percent = 80\n";
    let path = temp_config("rounds", &format!("{base}{set}"), 0o600);
    let s = Settings::resolve(&parse(&path, &[])).unwrap();
    assert_eq!(s.probe.every, Some(std::time::Duration::from_secs(5400)));
    assert_eq!(s.probe.sample, 5);
    assert_eq!(s.probe.timeout, std::time::Duration::from_secs(2));
    assert_eq!(s.probe.config().timeout, std::time::Duration::from_secs(2));
    assert_eq!(s.alert_rules.probe_alive_percent, 80.0);
    for (bad, key) in [
        ("probe_every = \"5 parsecs\"", "probe_every"),
        ("probe_every = \"0s\"", "probe_every"),
        ("probe_sample = 0", "probe_sample"),
        ("probe_timeout = 600", "probe_timeout"),
    ] {
        let path = temp_config("rounds-bad", &format!("{base}{bad}\n"), 0o600);
        let err = Settings::resolve(&parse(&path, &[]))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(&format!("{key}:")), "{bad}: {err}");
    }
}

#[test]
fn alerts_come_from_the_top_level_and_the_profile_overrides_them() {
    let text = r#"
[alerts]
debounce = 3
alert_bell = true
on_alert = "curl -d @- https://chat.example/hook?token=sentinel-hook"
[profiles.main]
base_url = "https://main.example"
token = "t"
[profiles.main.alerts]
debounce = 1
disabled = ["rate_forecast"]
[profiles.other]
base_url = "https://other.example"
token = "t"
"#;
    let path = temp_config("alerts", text, 0o600);
    let main = Settings::resolve(&parse(&path, &["--profile", "main"])).unwrap();
    assert_eq!(main.alert_rules.debounce, 1);
    assert_eq!(
        main.alert_rules.disabled,
        vec![crate::alerts::Rule::RateForecast]
    );
    assert!(
        main.alert_delivery.bell,
        "the top level's bell still applies"
    );
    let other = Settings::resolve(&parse(&path, &["--profile", "other"])).unwrap();
    assert_eq!(other.alert_rules.debounce, 3);
    assert!(other.alert_delivery.on_alert.is_some());
    // `config show` says a command is set, not what it is (a webhook may carry a token).
    let shown = command::describe(&other);
    assert!(shown.contains("on_alert set"), "{shown}");
    assert!(!shown.contains("sentinel-hook"), "{shown}");
    let bad = temp_config(
        "alerts-bad",
        "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\n[profiles.p.alerts]\nrate_percent = -1\n",
        0o600,
    );
    let err = Settings::resolve(&parse(&bad, &[])).unwrap_err();
    assert!(err.to_string().contains("alerts.rate_percent"), "{err}");
}

#[test]
fn the_dashboard_shows_its_set_and_the_commands_their_default_profile() {
    use selection::{Unnamed, profiles};
    let set = r#"dashboard_profiles = ["monitor", "main", "monitor"]"#;
    let text = format!("{set}\n{TWO_PROFILES}");
    let path = temp_config("dashboard-set", &text, 0o600);
    let cli = parse(&path, &[]);
    let names = profiles(&cli, Unnamed::DashboardProfiles).unwrap();
    assert_eq!(names, [Some("monitor".into()), Some("main".into())]);
    assert_eq!(profiles(&cli, Unnamed::DefaultProfile).unwrap(), [None]);
    // A profile named on the command line wins over the set.
    let cli = parse(&path, &["--profile", "main"]);
    let names = profiles(&cli, Unnamed::DashboardProfiles).unwrap();
    assert_eq!(names, [Some("main".into())]);
    let cli = parse(&path, &["--all-profiles"]);
    let all = profiles(&cli, Unnamed::DefaultProfile).unwrap();
    assert_eq!(all, [Some("main".into()), Some("monitor".into())]);
    let resolved = selection::resolve_all(&cli, Unnamed::DefaultProfile).unwrap();
    let names: Vec<&str> = resolved.iter().map(|(s, _)| s.profile.as_str()).collect();
    assert_eq!(names, ["main", "monitor"]);

    let text = format!("dashboard_profiles = [\"main\", \"typo\"]\n{TWO_PROFILES}");
    let path = temp_config("dashboard-typo", &text, 0o600);
    let e = profiles(&parse(&path, &[]), Unnamed::DashboardProfiles).unwrap_err();
    assert!(
        e.to_string().contains("dashboard_profiles names \"typo\""),
        "{e}"
    );
}

#[test]
fn one_account_settings_refuse_several_profiles() {
    let path = temp_config("one-account", TWO_PROFILES, 0o600);
    let e = Settings::resolve(&parse(
        &path,
        &["--profile", "main", "--profile", "monitor"],
    ))
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("2 profiles named (main, monitor): this command works on one account"),
        "{e}"
    );
    let e = Settings::resolve(&parse(&path, &["--all-profiles"]))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("--all-profiles: this command works on one account"),
        "{e}"
    );
    // The same profile twice is one account.
    let s = Settings::resolve(&parse(
        &path,
        &["--profile", "monitor", "--profile", "monitor"],
    ));
    assert_eq!(s.unwrap().profile, "monitor");
    let e = selection::profiles(
        &parse(&path, &["--all-profiles", "--profile", "main"]),
        selection::Unnamed::DefaultProfile,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("give one of them"), "{e}");
}

/// Issue 47.5: the dashboard's look from the settings: a skin beside the config file is
/// used; a bad one is said with its file and line and the dark theme used; NO_COLOR wins.
#[test]
fn a_skin_beside_the_config_file_is_used_and_a_bad_one_said() {
    use crate::config::skin;
    let path = temp_config(
        "skins",
        "[profiles.p]\nbase_url = \"https://x\"\ntoken = \"t\"\ntheme = \"mine\"\n",
        0o600,
    );
    let themes = path.parent().unwrap().join("themes");
    std::fs::create_dir_all(&themes).unwrap();
    std::fs::write(themes.join("mine.toml"), "warn = \"#ffff00\"\n").unwrap();
    let mut s = Settings::resolve(&parse(&path, &[])).unwrap();
    s.no_color = false;
    let (look, skins, said) = skin::resolve(&s);
    assert_eq!(look, crate::config::Look::Skin(0));
    assert_eq!(skins[0].0, "mine");
    assert_eq!(said, None);
    std::fs::write(themes.join("mine.toml"), "# mine\nwarn = \"blurple\"\n").unwrap();
    let (look, _, said) = skin::resolve(&s);
    assert_eq!(look, crate::config::Look::Dark);
    let said = said.unwrap();
    assert!(
        said.starts_with(
            "theme mine not used (dark instead): mine.toml line 2: warn: \"blurple\" is no colour"
        ),
        "{said}"
    );
    assert!(
        said.ends_with(&format!("(in {})", themes.display())),
        "{said}"
    );
    s.no_color = true;
    assert_eq!(skin::resolve(&s).0, crate::config::Look::Plain);
}
