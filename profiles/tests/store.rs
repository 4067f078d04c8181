//! The profile store on a real directory (the keychain turned off: CI machines have none, and a
//! test must not write to a developer's keychain), and the order `resolve` reads settings in.

use ruckus_one_profiles::{Error, Overrides, Profile, SecretPlace, Store, resolve};
use std::collections::HashMap;

const SECRET: &str = "s3cr3t-Value-9";

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::at(dir.path().join("ruckus")).without_keychain();
    (dir, store)
}

fn profile(client_id: &str, token_tenant: &str) -> Profile {
    let mut p = Profile::default();
    p.client_id = Some(client_id.into());
    p.token_tenant = Some(token_tenant.into());
    p.base_url = Some("http://127.0.0.1:9/".into());
    p.tenant = Some("customer-7".into());
    p
}

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn profiles_are_saved_read_and_removed() {
    let (_dir, store) = store();
    assert_eq!(store.profile("default").unwrap(), None);
    store
        .save_profile("default", &profile("app-1", "t-1"))
        .unwrap();
    store.save_profile("lab", &profile("app-2", "t-2")).unwrap();
    let read = store.profile("lab").unwrap().expect("saved");
    assert_eq!(read.client_id.as_deref(), Some("app-2"));
    #[cfg(unix)]
    assert_eq!(mode(&store.config_path()), 0o600);
    assert!(store.remove_profile("lab").unwrap());
    assert!(!store.remove_profile("lab").unwrap());
    assert!(store.profile("default").unwrap().is_some());
}

#[test]
fn secrets_fall_back_to_a_private_file() {
    let (_dir, store) = store();
    let (place, why) = store.store_secret("default", SECRET).unwrap();
    assert_eq!(place, SecretPlace::File);
    assert!(why.expect("a reason").contains("RUCKUS_KEYCHAIN=off"));
    #[cfg(unix)]
    assert_eq!(mode(&store.secrets_path()), 0o600);
    let (secret, place) = store.secret("default").unwrap().expect("stored");
    assert_eq!((secret.as_str(), place), (SECRET, SecretPlace::File));
    assert_eq!(store.secret("other").unwrap(), None);
    assert!(store.remove_secret("default").unwrap());
    assert_eq!(store.secret("default").unwrap(), None);
}

#[test]
fn a_broken_secrets_file_is_reported_without_its_contents() {
    let (_dir, store) = store();
    std::fs::create_dir_all(store.dir()).unwrap();
    // A secret written where the profiles map should be: serde_yaml's own message quotes it.
    std::fs::write(store.secrets_path(), format!("secrets: {SECRET}\n")).unwrap();
    let error = store.secret("default").expect_err("malformed");
    let text = format!("{error} {error:?}");
    assert!(text.contains("credentials.yaml"), "{text}");
    assert!(!text.contains(SECRET), "{text}");
}

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |name| map.get(name).cloned()
}

#[test]
fn flags_win_over_the_environment_which_wins_over_the_profile() {
    let (_dir, store) = store();
    store
        .save_profile("default", &profile("from-profile", "tenant-profile"))
        .unwrap();
    store.store_secret("default", SECRET).unwrap();

    let resolved = resolve(&store, "default", &Overrides::default(), vars(&[])).unwrap();
    let shown = format!("{resolved:?}");
    assert!(shown.contains("from-profile"), "{shown}");
    assert_eq!(resolved.token_tenant, "tenant-profile");
    assert_eq!(resolved.tenant.as_deref(), Some("customer-7"));
    assert!(!shown.contains(SECRET), "Debug shows the secret: {shown}");

    let env = vars(&[
        ("RUCKUS_CLIENT_ID", "from-env"),
        ("RUCKUS_TENANT_ID", "tenant-env"),
    ]);
    let resolved = resolve(&store, "default", &Overrides::default(), env).unwrap();
    assert!(format!("{resolved:?}").contains("from-env"));
    assert_eq!(resolved.token_tenant, "tenant-env");

    let mut flags = Overrides::default();
    flags.client_id = Some("from-flag".into());
    let env = vars(&[("RUCKUS_CLIENT_ID", "from-env")]);
    let resolved = resolve(&store, "default", &flags, env).unwrap();
    let shown = format!("{resolved:?}");
    assert!(
        shown.contains("from-flag") && !shown.contains("from-env"),
        "{shown}"
    );
}

#[test]
fn nothing_stored_and_nothing_set_names_what_is_missing() {
    let (_dir, store) = store();
    let error = resolve(&store, "default", &Overrides::default(), vars(&[])).expect_err("empty");
    assert!(matches!(error, Error::Config(_)));
    assert!(error.to_string().contains("RUCKUS_CLIENT_ID"), "{error}");
}

#[test]
fn the_secret_comes_from_the_environment_before_the_store() {
    let (_dir, store) = store();
    store.save_profile("default", &profile("app", "t")).unwrap();
    // No stored secret: only the environment's makes a configuration.
    let missing = resolve(&store, "default", &Overrides::default(), vars(&[]));
    assert!(
        missing
            .expect_err("no secret")
            .to_string()
            .contains("RUCKUS_CLIENT_SECRET")
    );
    let env = vars(&[("RUCKUS_CLIENT_SECRET", "env-secret-1")]);
    let resolved = resolve(&store, "default", &Overrides::default(), env).unwrap();
    assert!(!format!("{resolved:?}").contains("env-secret-1"));
}
