//! A multipart upload whose operation offers the vendor's versioned multipart type
//! (`upload_file`: `multipart/vnd.ruckus.v1+form-data` by default, plain form data as `json`),
//! sent by the generated client to the simulator in both versions.

mod common;

use common::sim_client;

use ruckus_one::Multipart;
use ruckus_one::network::versions::V1OrJson;
use ruckus_one_sim::Simulator;

fn csv() -> Multipart {
    Multipart::new().file(
        "file",
        "actions.csv",
        "text/csv",
        bytes::Bytes::from_static(b"name\nalice\n"),
    )
}

/// The status the simulator logged for the last `upload_file` call.
fn last_upload_status(sim: &Simulator) -> Option<u16> {
    sim.requests()
        .iter()
        .rev()
        .find(|r| r.operation.as_deref() == Some("upload_file"))
        .map(|r| r.status)
}

#[tokio::test]
async fn both_versions_of_the_upload_are_taken() {
    let sim = Simulator::start().await.expect("simulator");
    let client = sim_client(&sim);
    let workflows = client.network().workflows();
    workflows
        .upload_file()
        .body(csv())
        .send()
        .await
        .expect("the v1 upload is taken");
    assert_eq!(last_upload_status(&sim), Some(200));
    workflows
        .upload_file()
        .body(csv())
        .version(V1OrJson::Json)
        .send()
        .await
        .expect("the plain upload is taken");
    assert_eq!(last_upload_status(&sim), Some(200));
}
