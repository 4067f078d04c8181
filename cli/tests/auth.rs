//! `ruckus auth login|status|logout` with the keychain unavailable: the secret goes to a file
//! readable by its owner only, is never printed, and is used by later calls.

mod support;

use ruckus_one_sim::SimConfig;
use support::{ruckus, sim_with};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_falls_back_to_a_private_file_when_the_keychain_is_unavailable() {
    let sim = sim_with(SimConfig::default()).await;
    let (id, secret) = sim.credentials();
    let dir = tempfile::tempdir().unwrap();
    let tenant = sim.tenant_id();
    let base = sim.base_url();
    let login = [
        "auth",
        "login",
        "--client-id",
        &id,
        "--token-tenant",
        &tenant,
        "--base-url",
        &base,
        "--secret-stdin",
    ];
    let run = ruckus(None, dir.path(), &login, &format!("{secret}\n"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("keychain is not available"),
        "says so: {}",
        run.stderr
    );
    assert!(!run.stdout.contains(&secret) && !run.stderr.contains(&secret));

    let file = dir.path().join("credentials.yaml");
    assert!(std::fs::read_to_string(&file).unwrap().contains(&secret));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for f in [&file, &dir.path().join("config.yaml")] {
            let mode = std::fs::metadata(f).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{}", f.display());
        }
    }

    let status = ruckus(None, dir.path(), &["auth", "status", "-o", "json"], "");
    assert_eq!(status.code, 0, "{}", status.stderr);
    assert!(!status.stdout.contains(&secret));
    assert!(
        status.json()["secret"]
            .as_str()
            .unwrap()
            .contains("credentials.yaml")
    );
    // The settings shown are the saved profile's (no flag or RUCKUS_* variable sets them).
    assert_eq!(status.json()["client_id"], id.as_str());
    assert_eq!(status.json()["token_tenant"], tenant.as_str());

    // A call with no RUCKUS_* variables uses the stored profile and secret.
    let list = ruckus(None, dir.path(), &["venues", "list"], "");
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(list.json().is_array());

    let logout = ruckus(None, dir.path(), &["auth", "logout"], "");
    assert_eq!(logout.code, 0, "{}", logout.stderr);
    assert!(!std::fs::read_to_string(&file).unwrap().contains(&secret));
    let list = ruckus(None, dir.path(), &["venues", "list"], "");
    assert_eq!(list.code, 3, "no credentials left: {}", list.stderr);
}
