//! What is not one endpoint: a wrong token, a dead network, bad usage, `--help`,
//! completions, and hostile server text.

use super::*;

#[tokio::test]
async fn a_wrong_token_is_401_and_exits_1() {
    let sb = sandbox().await;
    let mut cmd = proxydash();
    cmd.args([
        "--base-url",
        &sb.base_url(),
        "--token",
        "WrongToken0WrongToken0WrongToken0WrongTo",
        "services",
    ]);
    let out = finish(&mut cmd, None)
        .await
        .fails(3, "List services: Unauthenticated");
    // No config file: the account is the flags', and no `default` profile is named
    // (issue 45: a profile the user never wrote).
    assert!(
        !out.stderr.contains("profile") && out.stderr.contains("--token"),
        "{out:#?}"
    );
    assert_eq!(out.stderr.lines().count(), 1, "{out:#?}");
    assert_eq!(sb.requests()[0].status, 401);
}

#[tokio::test]
async fn a_closed_port_is_a_network_error_and_exits_5() {
    let addr = closed_port().await;
    let mut cmd = proxydash();
    cmd.args([
        "--base-url",
        &format!("http://{addr}"),
        "--token",
        "t",
        "credit",
        "--json",
    ]);
    let out = finish(&mut cmd, None).await;
    assert_eq!(out.code, Some(5), "{out:#?}");
    assert!(
        out.stderr.contains("Read the credit: Cannot reach"),
        "{out:#?}"
    );
    // --json: the failure is JSON on standard output too.
    assert_eq!(out.json()["kind"], "unreachable");
    assert_eq!(out.json()["exit_status"], 5);
}

#[tokio::test]
async fn bad_usage_and_missing_accounts_exit_2() {
    let sb = sandbox().await;
    run(&sb, &["service", "abc"]).await.fails(2, "abc");
    run(&sb, &["invoice"]).await.fails(2, "<ID>");
    run(&sb, &["services", "--frobnicate"])
        .await
        .fails(2, "--frobnicate");
    run(&sb, &["bind", "1001", "1.2.3.4", "--mine"])
        .await
        .fails(2, "--mine");
    assert!(sb.requests().is_empty());

    let mut cmd = proxydash();
    cmd.args(["services"]);
    finish(&mut cmd, None)
        .await
        .fails(2, "No account configured");
    let mut cmd = proxydash();
    cmd.args([
        "--base-url",
        "http://api.example.com",
        "--token",
        "t",
        "credit",
    ]);
    finish(&mut cmd, None)
        .await
        .fails(2, "--allow-insecure-http");
}

#[tokio::test]
async fn every_subcommand_has_help_with_an_example() {
    for sub in [
        "clients",
        "products",
        "product",
        "order",
        "services",
        "service",
        "bind",
        "password",
        "refresh-list",
        "iplist",
        "credit",
        "invoices",
        "invoice",
        "stats",
        "rate",
        "network",
        "completions",
    ] {
        let mut cmd = proxydash();
        cmd.args([sub, "--help"]);
        let out = finish(&mut cmd, None).await.ok();
        assert!(
            out.stdout.contains(&format!("Example:\n  proxydash {sub}")),
            "{sub}: {}",
            out.stdout
        );
    }
    let mut cmd = proxydash();
    cmd.arg("--help");
    let out = finish(&mut cmd, None).await.ok();
    assert!(out.stdout.contains("refresh-list"), "{}", out.stdout);
}

#[tokio::test]
async fn completions_for_bash_name_the_subcommands() {
    let mut cmd = proxydash();
    cmd.args(["completions", "bash"]);
    let out = finish(&mut cmd, None).await.ok();
    assert!(
        out.stdout.contains("complete -F _proxydash"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("refresh-list") && out.stdout.contains("iplist"));
    let mut cmd = proxydash();
    cmd.args(["completions", "tcsh-9"]);
    finish(&mut cmd, None).await.fails(2, "tcsh-9");
}

#[tokio::test]
async fn hostile_server_text_cannot_reach_the_terminal() {
    // A seed whose client e-mail carries escape sequences.
    let mut seed: Value = serde_json::from_str(include_str!("../../assets/seed.json")).unwrap();
    seed["clients"][0]["email"] = "evil\u{1b}]0;pwned\u{7}\u{1b}[2J@example.com".into();
    let dir = temp_dir("hostile");
    let path = dir.join("seed.json");
    std::fs::write(&path, seed.to_string()).unwrap();
    let sb = Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        seed: Some(path),
        ..SandboxConfig::default()
    })
    .await
    .unwrap();
    let table = run(&sb, &["clients"]).await.ok().stdout;
    assert!(
        !table.contains('\u{1b}') && !table.contains('\u{7}'),
        "{table:?}"
    );
    assert!(row(&table, "101").contains("evil@example.com"), "{table}");
    // JSON keeps the value (escaped by JSON itself).
    let json = run(&sb, &["clients", "--json"]).await.ok().json();
    assert!(json[0]["email"].as_str().unwrap().contains('\u{1b}'));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bidi overrides and zero-width characters leave no trace in a table: a product name
/// written reversed with U+202E shows in its stored order, without the override.
#[tokio::test]
async fn bidi_and_zero_width_characters_are_not_printed() {
    let mut seed: Value = serde_json::from_str(include_str!("../../assets/seed.json")).unwrap();
    seed["products"][0]["name"] =
        "\u{202e}exe.txt\u{202c} pay\u{200b}pal \u{1f468}\u{200d}\u{1f469}\u{fe0f}".into();
    seed["clients"][0]["email"] = "\u{2066}a\u{feff}@example.com\u{2069}\u{200e}".into();
    let dir = temp_dir("bidi");
    let path = dir.join("seed.json");
    std::fs::write(&path, seed.to_string()).unwrap();
    let sb = Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        seed: Some(path),
        ..SandboxConfig::default()
    })
    .await
    .unwrap();
    let invisible = |c: char| {
        matches!(c, '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{fe00}'..='\u{fe0f}')
    };
    for args in [
        &["products"][..],
        &["product", "11"],
        &["clients"],
        &["services"],
    ] {
        let out = run(&sb, args).await.ok().stdout;
        assert!(!out.chars().any(invisible), "{args:?}: {out:?}");
    }
    let products = run(&sb, &["products"]).await.ok().stdout;
    assert!(
        row(&products, "11").contains("exe.txt paypal \u{1f468}\u{1f469}"),
        "{products}"
    );
    let clients = run(&sb, &["clients"]).await.ok().stdout;
    assert!(row(&clients, "101").contains("a@example.com"), "{clients}");
    let _ = std::fs::remove_dir_all(&dir);
}
