//! The request budget of the scripting commands: learned, kept between runs, and a 429 of
//! the account's limit exits 6 saying when to try again.

use super::*;

async fn limited(limit: u32) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        rate_limit: Some(limit),
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

async fn run_in(sb: &SandboxHandle, state: &std::path::Path, args: &[&str]) -> Run {
    let mut cmd = proxydash();
    cmd.env("XDG_STATE_HOME", state)
        .args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(args);
    finish(&mut cmd, None).await
}

#[tokio::test]
async fn the_learned_budget_is_kept_for_the_next_command() {
    let sb = limited(60).await;
    let state = temp_dir("budget-kept");
    run_in(&sb, &state, &["credit", "--json"]).await.ok();
    let kept: Value = serde_json::from_str(
        &std::fs::read_to_string(state.join("proxydash/budget.json")).expect("written"),
    )
    .unwrap();
    let account = &kept["accounts"][format!("default@{}", sb.base_url())];
    assert_eq!(account["limit"], 60, "{kept}");
    assert_eq!(account["source"], "headers", "{kept}");
    assert_eq!(account["spent"].as_array().map(Vec::len), Some(1), "{kept}");
}

#[tokio::test]
async fn a_429_of_the_accounts_limit_exits_6_saying_when_to_try_again() {
    let sb = limited(1).await;
    let state = temp_dir("budget-429");
    // Another program spends the window.
    ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap()
    .credit()
    .await
    .unwrap();
    let run = run_in(&sb, &state, &["credit"]).await;
    let run = run.fails(6, "try again in");
    assert!(run.stderr.contains("limit"), "{run:#?}");
    assert_eq!(requests(&sb, "GET").len(), 2, "not retried");
}
