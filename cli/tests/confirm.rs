//! The question before a delete: asked on a terminal (standard input and error on a
//! pseudo-terminal here), where "n" deletes nothing and "y" deletes; never asked otherwise.

mod support;

use nix::pty::openpty;
use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::json;
use std::io::{Read, Write};
use std::process::Stdio;
use std::sync::mpsc;
use support::{command, ruckus, sim_with};

const QUESTION: &str = "[y/N]";

struct TerminalRun {
    code: i32,
    /// What the terminal showed (standard error, and the echo of what was typed).
    screen: String,
}

/// `ruckus ARGS` with standard input and error on a new pseudo-terminal; `answer` is typed when
/// the question shows (`None`: the run must end without asking).
fn on_terminal(sim: &Simulator, args: &[&str], answer: Option<&str>) -> TerminalRun {
    let dir = tempfile::tempdir().unwrap();
    let pty = openpty(None, None).expect("a pseudo-terminal");
    let mut cmd = command(Some(sim), dir.path(), args);
    cmd.stdin(Stdio::from(pty.slave.try_clone().unwrap()))
        .stderr(Stdio::from(pty.slave))
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary runs");
    // Only the child holds the terminal's end now: reading ends when it exits.
    drop(cmd);
    let mut master = std::fs::File::from(pty.master);
    let mut typist = master.try_clone().unwrap();
    let (asked_tx, asked) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut screen = Vec::new();
        let mut buf = [0u8; 1024];
        let mut told = false;
        // A read error (EIO) is the terminal closing: the child is gone.
        while let Ok(n @ 1..) = master.read(&mut buf) {
            screen.extend_from_slice(&buf[..n]);
            if !told && String::from_utf8_lossy(&screen).contains(QUESTION) {
                told = true;
                let _ = asked_tx.send(());
            }
        }
        String::from_utf8_lossy(&screen).into_owned()
    });
    if let Some(answer) = answer {
        asked.recv().expect("the question is asked");
        typist.write_all(format!("{answer}\n").as_bytes()).unwrap();
    }
    let status = child.wait().expect("the binary ends");
    drop(typist);
    TerminalRun {
        code: status.code().unwrap_or(-1),
        screen: reader.join().unwrap(),
    }
}

fn venue_ids(sim: &Simulator) -> Vec<String> {
    let mut ids: Vec<String> = sim
        .objects(&sim.tenant_id(), "/venues")
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

async fn sim_with_venues() -> Simulator {
    let sim = sim_with(SimConfig::default()).await;
    for id in ["v-1", "v-2"] {
        let venue = json!({"id": id, "name": format!("venue {id}")});
        sim.insert(&sim.tenant_id(), "/venues", venue).unwrap();
    }
    sim
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_terminal_no_deletes_nothing_and_yes_deletes() {
    let sim = sim_with_venues().await;
    let delete = ["venues", "delete", "--venue-id", "v-1"];

    let refused = on_terminal(&sim, &delete, Some("n"));
    assert!(
        refused.screen.contains("Delete venue") && refused.screen.contains(QUESTION),
        "{}",
        refused.screen
    );
    assert_ne!(refused.code, 0, "{}", refused.screen);
    assert!(refused.screen.contains("not deleted"), "{}", refused.screen);
    assert_eq!(venue_ids(&sim), ["v-1", "v-2"]);
    assert!(
        !sim.requests().iter().any(|r| r.method == "DELETE"),
        "no delete reached the simulator"
    );

    let accepted = on_terminal(&sim, &delete, Some("y"));
    assert_eq!(accepted.code, 0, "{}", accepted.screen);
    assert_eq!(venue_ids(&sim), ["v-2"]);

    // --yes: not asked, deleted.
    let args = ["venues", "delete", "--venue-id", "v-2", "--yes"];
    let forced = on_terminal(&sim, &args, None);
    assert_eq!(forced.code, 0, "{}", forced.screen);
    assert!(!forced.screen.contains(QUESTION), "{}", forced.screen);
    assert!(venue_ids(&sim).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_terminal_a_delete_is_never_asked_about() {
    let sim = sim_with_venues().await;
    let dir = tempfile::tempdir().unwrap();
    // Standard input holds an "n" that a question would read: it is not read.
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "delete", "--venue-id", "v-1"],
        "n\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains(QUESTION), "{}", run.stderr);
    assert_eq!(venue_ids(&sim), ["v-2"]);
}
