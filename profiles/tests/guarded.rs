//! A store another user could change is refused, as ssh refuses such keys; what is read is
//! bounded (size, nesting, regular files only: a FIFO must not block).
#![cfg(unix)]

use ruckus_one_profiles::{Error, Profile, Store};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::at(dir.path().join("ruckus")).without_keychain();
    let mut profile = Profile::default();
    profile.client_id = Some("app".into());
    store.save_profile("default", &profile).expect("saved");
    (dir, store)
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn refused(result: Result<impl std::fmt::Debug, Error>) -> String {
    match result {
        Err(e @ Error::Unsafe { .. }) => e.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_directory_others_can_write_is_refused() {
    let (_dir, store) = store();
    chmod(store.dir(), 0o777);
    let message = refused(store.profile("default"));
    assert!(
        message.contains("can be written by other users (mode 777)"),
        "{message}"
    );
    assert!(
        message.contains("refusing to use the profile store"),
        "{message}"
    );
    refused(store.save_profile("lab", &Profile::default()));
    refused(store.secret("default"));
    chmod(store.dir(), 0o700);
    assert!(store.profile("default").expect("read").is_some());
}

#[test]
fn a_file_others_can_write_is_refused() {
    let (_dir, store) = store();
    chmod(&store.config_path(), 0o620);
    let message = refused(store.profile("default"));
    assert!(
        message.contains("config.yaml can be written by other users"),
        "{message}"
    );
    store.store_secret("default", "s3cr3t").expect("stored");
    chmod(&store.secrets_path(), 0o606);
    refused(store.secret("default"));
}

#[test]
fn a_file_of_another_user_is_refused() {
    if !rustix::process::geteuid().is_root() {
        eprintln!("skipped: only root can give a file to another user");
        return;
    }
    let (_dir, store) = store();
    let nobody = rustix::process::Uid::from_raw(65534);
    rustix::fs::chown(store.config_path(), Some(nobody), None).expect("chown");
    let message = refused(store.profile("default"));
    assert!(message.contains("is owned by user 65534"), "{message}");
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let (_dir, store) = store();
    std::fs::remove_file(store.config_path()).expect("removed");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        store.config_path(),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(store.profile("default").map_err(|e| e.to_string()));
    });
    let answer = receiver
        .recv_timeout(Duration::from_secs(10))
        .expect("the read of a FIFO returns");
    let message = answer.expect_err("a FIFO is not a profile file");
    assert!(message.contains("not a regular file"), "{message}");
}

#[test]
fn deep_nesting_is_refused_before_it_is_parsed() {
    let (_dir, store) = store();
    let deep = format!("profiles: {}", "[".repeat(100_000));
    std::fs::write(store.config_path(), deep).expect("written");
    let message = store.profile("default").expect_err("too deep").to_string();
    assert!(
        message.contains("nested deeper than 16 levels"),
        "{message}"
    );
    let block: String = (0..40)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    std::fs::write(store.config_path(), block).expect("written");
    let message = store.profile("default").expect_err("too deep").to_string();
    assert!(message.contains("nested deeper"), "{message}");
}

#[test]
fn a_file_over_the_size_limit_is_refused() {
    let (_dir, store) = store();
    let big = format!("profiles: {{}}\n#{}\n", "x".repeat(2 << 20));
    std::fs::write(store.config_path(), big).expect("written");
    let message = store.profile("default").expect_err("too big").to_string();
    assert!(message.contains("larger than 1048576 bytes"), "{message}");
}
