//! `ruckus export | plan | apply` run as the built binary against simulators: export a seeded
//! tenant, plan and apply it to an empty one, converge, export the same bytes; an apply
//! killed with SIGKILL and resumed.

mod support;

use ruckus_one_sim::{Seed, SimConfig, Simulator};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use support::{command, sim_with};

const RESOURCES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../state/tests/fixtures/resources.json"
);
const PASSPHRASE: &str = "s3cret-Passphrase-4711";
const PASSPHRASE_VAR: &str = "RUCKUS_SECRET_WIFI_NETWORK_GUEST_WLAN_PASSPHRASE";

fn seed() -> Seed {
    Seed::parse(&format!(
        r#"
objects:
  sim-tenant:
    /venues:
      - {{id: v-1, name: Lobby, description: Main building, address: {{city: Sunnyvale, country: United States}}}}
    /venues/v-1/apGroups:
      - {{id: g-1, name: Group A, description: first floor}}
      - {{id: g-2, name: Group B, description: second floor}}
    /wifiNetworks:
      - {{id: w-1, name: Guest, type: psk, wlan: {{ssid: guest, passphrase: {PASSPHRASE}}}}}
    /switchProfiles:
      - {{id: sp-1, name: Core, description: core switches}}
    /venues/v-1/switchProfiles:
      - {{id: sp-1}}
"#
    ))
    .unwrap()
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn ruckus(sim: &Simulator, config: &Path, args: &[&str]) -> Out {
    let out = command(Some(sim), config, args)
        .env("RUCKUS_RESOURCES", RESOURCES)
        .env(PASSPHRASE_VAR, PASSPHRASE)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// How many objects the tenant has in each collection the fixture manages.
fn census(sim: &Simulator) -> Vec<(String, usize)> {
    let venues = sim.objects("sim-tenant", "/venues");
    let mut out = vec![
        ("venues".to_owned(), venues.len()),
        (
            "networks".to_owned(),
            sim.objects("sim-tenant", "/wifiNetworks").len(),
        ),
        (
            "profiles".to_owned(),
            sim.objects("sim-tenant", "/switchProfiles").len(),
        ),
    ];
    for v in &venues {
        let id = v["id"].as_str().unwrap();
        out.push((
            format!("groups of {}", v["name"]),
            sim.objects("sim-tenant", &format!("/venues/{id}/apGroups"))
                .len(),
        ));
        out.push((
            format!("profiles of {}", v["name"]),
            sim.objects("sim-tenant", &format!("/venues/{id}/switchProfiles"))
                .len(),
        ));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_plan_apply_plan_export_through_the_binary() {
    let config = tempfile::tempdir().unwrap();
    let source = sim_with(SimConfig::default().seed(seed())).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("state");
    let exported = ruckus(
        &source,
        config.path(),
        &["export", "--out", out.to_str().unwrap()],
    );
    assert_eq!(exported.code, 0, "{}", exported.stderr);
    let first = files(&out);
    assert!(
        first.contains_key("venue/Lobby.yaml") && first.contains_key("ap_group/Lobby/Group B.yaml"),
        "{first:#?}"
    );
    for (name, text) in &first {
        assert!(!text.contains(PASSPHRASE), "{name} holds the secret");
    }

    let target = sim_with(SimConfig::default()).await;
    let plan = ruckus(
        &target,
        config.path(),
        &["plan", out.to_str().unwrap(), "-o", "json"],
    );
    assert_eq!(plan.code, 10, "{}", plan.stderr);
    let steps: serde_json::Value = serde_json::from_str(&plan.stdout).unwrap();
    let creates: Vec<String> = steps["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["action"] == "create")
        .map(|s| {
            format!(
                "{} {}",
                s["operation"].as_str().unwrap(),
                s["address"]["name"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        creates.contains(&"create_venue Lobby".to_owned()),
        "{creates:?}"
    );
    for expected in [
        "create_venue Lobby",
        "create_venue_ap_group Group A",
        "create_wifi_network Guest",
    ] {
        assert!(creates.contains(&expected.to_owned()), "{creates:?}");
    }

    let applied = ruckus(
        &target,
        config.path(),
        &["apply", out.to_str().unwrap(), "--yes", "-o", "json"],
    );
    assert_eq!(applied.code, 0, "{}", applied.stderr);
    let report: serde_json::Value = serde_json::from_str(&applied.stdout).unwrap();
    let outcomes = report["steps"].as_array().unwrap();
    assert_eq!(
        outcomes.len(),
        steps["steps"].as_array().unwrap().len(),
        "{report:#}"
    );
    assert!(
        outcomes.iter().all(|s| s["outcome"] == "done"),
        "{report:#}"
    );
    assert!(report["failure"].is_null(), "{report:#}");
    let again = ruckus(&target, config.path(), &["plan", out.to_str().unwrap()]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);

    let out2 = dir.path().join("again");
    let reexported = ruckus(
        &target,
        config.path(),
        &["export", "--out", out2.to_str().unwrap()],
    );
    assert_eq!(reexported.code, 0, "{}", reexported.stderr);
    assert_eq!(first, files(&out2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_apply_killed_with_sigkill_resumes_without_duplicates() {
    let config = tempfile::tempdir().unwrap();
    let source = sim_with(SimConfig::default().seed(seed())).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("state");
    let out_s = out.to_str().unwrap();
    assert_eq!(
        ruckus(&source, config.path(), &["export", "--out", out_s]).code,
        0
    );

    let target = sim_with(SimConfig::default()).await;
    let journal = dir.path().join("apply.journal");
    let journal_s = journal.to_str().unwrap();
    let mut child = command(
        Some(&target),
        config.path(),
        &["apply", out_s, "--yes", "--journal", journal_s],
    )
    .env("RUCKUS_RESOURCES", RESOURCES)
    .env(PASSPHRASE_VAR, PASSPHRASE)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // Killed while a step is accepted and not done (its activity running), after another
    // step is done: the resumed run must neither repeat the done one nor duplicate the other.
    // Waits on the journal, not on the clock: an apply that ends before it is mid-step fails
    // the test at once.
    while !mid_step(&std::fs::read_to_string(&journal).unwrap_or_default()) {
        let ended = child.try_wait().unwrap();
        assert!(
            ended.is_none(),
            "the apply ended ({ended:?}) before it was mid-step"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the apply was killed before it ended");
    let journaled = std::fs::read_to_string(&journal).unwrap();
    assert!(!journaled.is_empty());

    let resumed = ruckus(
        &target,
        config.path(),
        &["apply", out_s, "--yes", "--resume", "--journal", journal_s],
    );
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let counts = census(&target);
    assert!(
        counts
            .iter()
            .all(|(what, n)| *n == if what.starts_with("groups") { 2 } else { 1 }),
        "{counts:?}"
    );
    let plan = ruckus(&target, config.path(), &["plan", out_s]);
    assert_eq!(plan.code, 0, "{}{}", plan.stdout, plan.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_simulate_of_an_edited_export_leaves_the_tenant_unchanged() {
    let config = tempfile::tempdir().unwrap();
    let service = sim_with(SimConfig::default().seed(seed())).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("state");
    let out_s = out.to_str().unwrap();
    assert_eq!(
        ruckus(&service, config.path(), &["export", "--out", out_s]).code,
        0
    );
    let file = out.join("venue/Lobby.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("Main building", "Head office")).unwrap();
    let before = census(&service);
    let logged = service.requests().len();

    let simulated = ruckus(
        &service,
        config.path(),
        &["plan", out_s, "--simulate", "-o", "json"],
    );
    assert_eq!(
        simulated.code, 10,
        "{}{}",
        simulated.stdout, simulated.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&simulated.stdout).unwrap();
    assert_eq!(report["converged"], true, "{report:#}");
    assert_eq!(report["steps"][0]["outcome"], "done", "{report:#}");
    assert_eq!(
        report["steps"][0]["step"]["operation"], "update_venue",
        "{report:#}"
    );

    let writes: Vec<String> = service.requests()[logged..]
        .iter()
        .filter(|r| r.method != "GET" && !r.path.ends_with("/query") && !r.path.contains("token"))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(writes.is_empty(), "{writes:?}");
    assert_eq!(census(&service), before);
    let lobby = &service.objects("sim-tenant", "/venues")[0];
    assert_eq!(lobby["description"], "Main building");
}

/// Whether the journal shows a step done and another accepted but not done.
fn mid_step(journal: &str) -> bool {
    let mut last: BTreeMap<String, String> = BTreeMap::new();
    for line in journal.lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            last.insert(v["step"].to_string(), v["state"].to_string());
        }
    }
    let done = last.values().filter(|s| *s == "\"done\"").count();
    let accepted = last.values().filter(|s| *s == "\"accepted\"").count();
    done >= 1 && accepted >= 1
}
