//! Issue 46 items 3 and 4 against the binary: a route's own limit is the route's, and the
//! commands of one profile keep one budget with its other processes (the shared send log).

use super::*;

/// The sandbox on loopback: `ip_list` a minute on the IP lists alone (with the headers),
/// and `limit` a minute over every endpoint (no rate headers at all without one).
async fn server(limit: Option<u32>, ip_list: Option<u32>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        rate_limit: limit,
        ip_list_rate_limit: ip_list,
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

fn command(sb: &SandboxHandle, state: &std::path::Path, args: &[&str]) -> Command {
    let mut cmd = proxydash();
    cmd.env("XDG_STATE_HOME", state)
        .args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(args);
    cmd
}

async fn run_in(sb: &SandboxHandle, state: &std::path::Path, args: &[&str]) -> Run {
    let mut cmd = command(sb, state, args);
    let run = finish(&mut cmd, None);
    tokio::time::timeout(std::time::Duration::from_secs(60), run)
        .await
        .expect("the command ends")
}

fn kept(sb: &SandboxHandle, state: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(state.join("proxydash/budget.json")).expect("written");
    let all: Value = serde_json::from_str(&text).unwrap();
    all["accounts"][format!("default@{}", sb.base_url())].clone()
}

const IP_LIST: &str = "GET /api/iplist/{typel}/{formatl}/{id}";

/// Issue 46.3: IP lists answered with `X-RateLimit-Limit: 5` made the next command wait
/// 61 s for "5 requests a minute". The 5 is the IP lists' own; a service's detail goes at
/// once, and the account's limit is not 5.
#[tokio::test]
async fn an_ip_lists_own_limit_is_kept_for_the_ip_list_alone() {
    let sb = server(Some(60), Some(5)).await;
    let state = temp_dir("budget-route-limit");
    for _ in 0..3 {
        run_in(&sb, &state, &["iplist", "1001", "--type", "http-ip"])
            .await
            .ok();
    }
    let run = run_in(&sb, &state, &["service", "1001", "--json"])
        .await
        .ok();
    assert!(!run.stderr.contains("waiting"), "{run:#?}");
    let account = kept(&sb, &state);
    assert_eq!(account["routes"][IP_LIST]["limit"], 5, "{account}");
    assert_ne!(
        account["limit"], 5,
        "the IP lists' figure is not the account's: {account}"
    );
}

/// A 429 of the IP lists' own count pauses the IP lists, not the account: the next
/// command reads a service at once, and the next IP list exits 6 at once, sending nothing.
#[tokio::test]
async fn a_429_of_a_routes_own_count_pauses_that_route_alone() {
    let sb = server(Some(60), Some(5)).await;
    let state = temp_dir("budget-route-429");
    // Another program spends the IP lists' count.
    let other = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();
    for _ in 0..5 {
        other
            .ip_list(1001, &IpListType::HttpIp, &IpListFormat::Txt)
            .await
            .unwrap();
    }
    run_in(&sb, &state, &["iplist", "1001", "--type", "http-ip"])
        .await
        .fails(6, "try again");
    let run = run_in(&sb, &state, &["service", "1001", "--json"])
        .await
        .ok();
    assert_eq!(run.json()["service_id"], 1001);
    let lists = || {
        sb.requests()
            .iter()
            .filter(|r| r.path.starts_with("/api/iplist/"))
            .count()
    };
    let before = lists();
    run_in(&sb, &state, &["iplist", "1001", "--type", "http-ip"])
        .await
        .fails(6, &format!("nothing was sent: {IP_LIST} is paused for"));
    assert_eq!(
        lists(),
        before,
        "nothing sent while the IP lists are paused"
    );
    let account = kept(&sb, &state);
    assert!(account["paused_until"].is_null(), "{account}");
    assert!(
        account["routes"][IP_LIST]["paused_until"].is_i64(),
        "{account}"
    );
}

/// Plants `n` sends another process of the profile made `ago` before now in the shared
/// send log of `sb`'s account.
fn plant(sb: &SandboxHandle, state: &std::path::Path, n: usize, ago: std::time::Duration) {
    let name =
        proxydash::scheduler::SendLog::name_for("default", &format!("default@{}", sb.base_url()));
    let dir = state.join("proxydash/sends");
    std::fs::create_dir_all(&dir).unwrap();
    let at = chrono::Utc::now().timestamp_millis() - ago.as_millis() as i64;
    let lines: String = (0..n)
        .map(|i| format!("{at} 1.0 {i} person GET /api/services\n"))
        .collect();
    std::fs::write(dir.join(name), lines).unwrap();
}

/// A running command, until it either ends or says it waits for the budget.
async fn ends_or_waits(cmd: &mut Command) -> (tokio::process::Child, Option<String>) {
    use tokio::io::AsyncBufReadExt;
    let mut child = cmd.spawn().expect("the binary starts");
    let stderr = child.stderr.take().unwrap();
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    let said = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("waiting") {
                return Some(line);
            }
        }
        None
    })
    .await
    .expect("the command ends or says it waits within a minute");
    (child, said)
}

/// Issue 46.4: `credit` in a loop sent 240 requests in 10 s: the reads it adds for the
/// money ahead did not wait for the budget, and each run knew nothing of the others'.
/// With 58 sends of another process in the window, `credit` sends two reads and waits
/// for the third.
#[tokio::test]
async fn every_read_of_credit_counts_what_the_others_sent() {
    let sb = server(None, None).await;
    let state = temp_dir("budget-credit-shared");
    plant(&sb, &state, 58, std::time::Duration::from_secs(40));
    let (mut child, said) = ends_or_waits(&mut command(&sb, &state, &["credit"])).await;
    let said = said.expect("it waits for the budget");
    assert!(
        said.contains("for the request budget (60 requests a minute)"),
        "{said}"
    );
    let _ = child.kill().await;
    assert_eq!(sb.requests().len(), 2, "{:?}", sb.requests());
}

/// Issue 46.4: 8 scripts in parallel sent 3.4 times the limit. With 55 sends in the
/// window, 8 `service N --json` at once send 5 between them: the log is taken under a
/// lock, so no token is spent twice.
#[tokio::test]
async fn scripts_in_parallel_share_one_budget() {
    let sb = server(None, None).await;
    let state = temp_dir("budget-parallel");
    plant(&sb, &state, 55, std::time::Duration::from_secs(40));
    let runs = (0..8).map(|_| {
        let mut cmd = command(&sb, &state, &["service", "1001", "--json"]);
        async move { ends_or_waits(&mut cmd).await }
    });
    let ended = futures::future::join_all(runs).await;
    let waiting = ended.iter().filter(|(_, said)| said.is_some()).count();
    assert_eq!(sb.requests().len(), 5, "{:?}", sb.requests());
    assert_eq!(waiting, 3);
    for (mut child, _) in ended {
        let _ = child.kill().await;
    }
}
