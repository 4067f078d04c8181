//! Under `umask 000` the store is still its user's alone: the directory 0700, the files 0600.
//! (Its own test binary: the umask is the whole process's.)
#![cfg(unix)]

use ruckus_one_profiles::{Profile, Store};
use std::os::unix::fs::PermissionsExt;

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn an_open_umask_still_makes_a_private_store() {
    let previous = rustix::process::umask(rustix::fs::Mode::empty());
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::at(dir.path().join("a").join("ruckus")).without_keychain();
    let mut profile = Profile::default();
    profile.client_id = Some("app".into());
    store.save_profile("default", &profile).expect("saved");
    store.store_secret("default", "s3cr3t").expect("stored");
    rustix::process::umask(previous);
    assert_eq!(mode(store.dir()), 0o700);
    assert_eq!(mode(&store.config_path()), 0o600);
    assert_eq!(mode(&store.secrets_path()), 0o600);
    for entry in std::fs::read_dir(store.dir()).expect("listed") {
        let path = entry.expect("entry").path();
        assert_eq!(mode(&path) & 0o077, 0, "{}", path.display());
    }
}
