//! A hundred simulators in one process, at once: each starts, issues a token and keeps its own
//! state apart from the others'.

use ruckus_one_sim::{SimConfig, Simulator};
use std::time::Duration;

const FORM: &str =
    "grant_type=client_credentials&client_id=sim-client-id&client_secret=sim-client-secret";

async fn exercise(http: reqwest::Client, n: usize) -> Result<(Simulator, String), String> {
    let sim = Simulator::start_with(SimConfig::default().activity_duration(Duration::ZERO)).await?;
    let base = sim.base_url();
    let answer = http
        .post(format!("{base}/oauth2/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(FORM)
        .send()
        .await
        .map_err(|e| e.to_string())?
        .bytes()
        .await
        .map_err(|e| e.to_string())?;
    let token: serde_json::Value = serde_json::from_slice(&answer).map_err(|e| e.to_string())?;
    let token = token["access_token"].as_str().ok_or("no token")?.to_owned();
    let name = format!("venue-{n}");
    let created = http
        .post(format!("{base}/venues"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body(format!(
            r#"{{"name":"{name}","address":{{"city":"c","country":"x"}}}}"#
        ))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if created.status() != 202 {
        return Err(format!("create answered {}", created.status()));
    }
    Ok((sim, name))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_simulators_run_in_parallel_in_one_process() {
    let http = reqwest::Client::new();
    let runs = (0..100).map(|n| exercise(http.clone(), n));
    let sims: Vec<(Simulator, String)> = futures_util::future::join_all(runs)
        .await
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("every simulator serves");
    let mut ports: Vec<u16> = sims.iter().map(|(s, _)| s.addr().port()).collect();
    ports.sort_unstable();
    ports.dedup();
    assert_eq!(ports.len(), 100);
    for (sim, name) in &sims {
        let venues = sim.objects(&sim.tenant_id(), "/venues");
        assert_eq!(venues.len(), 1, "each simulator has its own state");
        assert_eq!(venues[0]["name"], serde_json::json!(name));
    }
}
