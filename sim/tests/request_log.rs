//! The request log stays small however long the paths clients send: each path is kept to its
//! first bytes, and what was left out is counted.

use ruckus_one_sim::Simulator;
use ruckus_one_sim::state::LOGGED_TEXT_MAX;

#[tokio::test]
async fn long_paths_are_logged_cut_and_counted() {
    let sim = Simulator::start().await.expect("simulator");
    let http = reqwest::Client::new();
    let long = format!("/venues/{}", "a".repeat(60_000));
    for _ in 0..20 {
        let answer = http
            .get(format!("{}{long}", sim.base_url()))
            .send()
            .await
            .expect("answered");
        // The whole path was still routed (an unknown venue, not a refused request).
        assert_ne!(answer.status().as_u16(), 414);
    }
    let short = http.get(format!("{}/venues", sim.base_url())).send().await;
    short.expect("answered");
    let log = sim.requests();
    assert_eq!(log.len(), 21);
    for entry in &log[..20] {
        assert_eq!(entry.path.len(), LOGGED_TEXT_MAX);
        assert!(long.starts_with(&entry.path));
        assert_eq!(entry.truncated_bytes, long.len() - LOGGED_TEXT_MAX);
    }
    let total: usize = log.iter().map(|e| e.path.len()).sum();
    assert!(total <= 21 * LOGGED_TEXT_MAX, "{total}");
    assert_eq!(log[20].path, "/venues");
    assert_eq!(log[20].truncated_bytes, 0);
}
