//! Writes are whole or not at all and one at a time: a writer killed between writing and
//! renaming leaves the old file; two logins at once both stay; a reader never sees a file half
//! written.

use ruckus_one_profiles::{Profile, Store};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Set for the child process of [`a_writer_killed_on_the_way_leaves_the_old_profiles`].
const CHILD_DIR: &str = "RUCKUS_PROFILES_TEST_WRITER_DIR";

fn profile(client_id: &str) -> Profile {
    let mut p = Profile::default();
    p.client_id = Some(client_id.into());
    p.token_tenant = Some("t".repeat(100));
    p
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::at(dir.path().join("ruckus")).without_keychain();
    (dir, store)
}

/// The child: saves profiles until it is killed (does nothing unless started by the test).
#[test]
#[ignore = "the child process of a test, started by it"]
fn writer_child() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let store = Store::at(dir).without_keychain();
    for i in 0.. {
        store
            .save_profile(&format!("p{}", i % 500), &profile("churn"))
            .expect("saved");
        store
            .store_secret("default", &format!("s-{i}"))
            .expect("stored");
    }
}

#[test]
fn a_writer_killed_on_the_way_leaves_the_old_profiles() {
    let (_dir, store) = store();
    store
        .save_profile("default", &profile("app"))
        .expect("saved");
    store.store_secret("default", "s3cr3t").expect("stored");
    for round in 0..5 {
        let mut child = Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", "writer_child", "--ignored", "--nocapture"])
            .env(CHILD_DIR, store.dir())
            .stdout(Stdio::null())
            .spawn()
            .expect("child");
        std::thread::sleep(Duration::from_millis(150 + 37 * round));
        child.kill().expect("killed");
        child.wait().expect("reaped");
        let read = store.profile("default").expect("config.yaml whole");
        assert_eq!(read.expect("kept").client_id.as_deref(), Some("app"));
        let (secret, _) = store.secret("default").expect("whole").expect("a secret");
        assert!(secret == "s3cr3t" || secret.starts_with("s-"));
    }
}

#[test]
fn a_stray_temporary_file_changes_nothing() {
    let (_dir, store) = store();
    store
        .save_profile("default", &profile("app"))
        .expect("saved");
    // What a writer killed before its rename leaves.
    let stray = store.dir().join(".config.yaml.abc123.tmp");
    std::fs::write(&stray, "profiles: {default: {client_id: hal").expect("written");
    assert!(store.profile("default").expect("read").is_some());
    store.save_profile("lab", &profile("lab")).expect("saved");
    assert!(store.profile("default").expect("read").is_some());
    assert!(store.profile("lab").expect("read").is_some());
}

#[test]
fn two_logins_at_once_both_stay() {
    let (_dir, store) = store();
    let logins: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|who| {
            let store = store.clone();
            std::thread::spawn(move || {
                for i in 0..40 {
                    let name = format!("{who}{i}");
                    store.save_profile(&name, &profile(&name)).expect("saved");
                    store
                        .store_secret(&name, &format!("secret-{name}"))
                        .expect("stored");
                }
            })
        })
        .collect();
    for login in logins {
        login.join().expect("login");
    }
    for who in ["a", "b"] {
        for i in 0..40 {
            let name = format!("{who}{i}");
            assert!(store.profile(&name).expect("read").is_some(), "{name} lost");
            let (secret, _) = store.secret(&name).expect("read").expect("secret kept");
            assert_eq!(secret, format!("secret-{name}"));
        }
    }
}

#[test]
fn a_reader_never_sees_a_file_half_written() {
    let (_dir, store) = store();
    store
        .save_profile("default", &profile("app"))
        .expect("saved");
    let writer = {
        let store = store.clone();
        std::thread::spawn(move || {
            for i in 0..300 {
                store
                    .save_profile(&format!("p{}", i % 50), &profile("churn"))
                    .expect("saved");
            }
        })
    };
    while !writer.is_finished() {
        let read = store.profile("default").expect("a whole file");
        assert!(
            read.is_some(),
            "the profile vanished while another was saved"
        );
    }
    writer.join().expect("writer");
}
