//! Issue 10: `Config::from_env`, tested through `Config::from_vars` so that
//! no test changes the process environment.

use std::collections::HashMap;

use ruckus_one_runtime::{Config, Error, Region, env};

fn complete() -> HashMap<&'static str, String> {
    HashMap::from([
        (env::CLIENT_ID, "client-id".to_owned()),
        (env::CLIENT_SECRET, "client-secret-value".to_owned()),
        (env::TENANT_ID, "0123abcd".to_owned()),
        (env::REGION, "eu".to_owned()),
    ])
}

fn from(vars: &HashMap<&'static str, String>) -> Result<Config, Error> {
    Config::from_vars(|name| vars.get(name).cloned())
}

fn env_error(err: Error) -> (&'static str, &'static str) {
    match err {
        Error::Env { variable, problem } => (variable, problem),
        other => panic!("expected an Env error, got {other:?}"),
    }
}

#[test]
fn a_complete_environment_gives_a_configuration() {
    let config = from(&complete()).unwrap();
    let text = format!("{config:?}");
    assert!(text.contains("client-id"), "{text}");
    assert!(text.contains("Europe"), "{text}");
    assert!(
        text.contains("token_tenant_id: Some(\"0123abcd\")"),
        "{text}"
    );
    assert!(!text.contains("client-secret-value"), "{text}");
}

#[test]
fn each_missing_variable_is_named() {
    for variable in [
        env::CLIENT_ID,
        env::CLIENT_SECRET,
        env::TENANT_ID,
        env::REGION,
    ] {
        let mut vars = complete();
        vars.remove(variable);
        let err = from(&vars).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("environment variable {variable} is not set")
        );
        assert_eq!(env_error(err), (variable, "is not set"));
        let mut vars = complete();
        vars.insert(variable, String::new());
        assert_eq!(env_error(from(&vars).unwrap_err()), (variable, "is empty"));
    }
}

#[test]
fn invalid_values_are_named() {
    for (variable, value) in [
        (env::REGION, "mars"),
        (env::REGION, "e u"),
        (env::TENANT_ID, " 0123abcd"),
        (env::TENANT_ID, "abc def"),
        (env::BASE_URL, "localhost:8080"),
        (env::BASE_URL, "ftp://h"),
    ] {
        let mut vars = complete();
        vars.insert(variable, value.to_owned());
        let err = from(&vars).unwrap_err();
        let message = err.to_string();
        assert_eq!(env_error(err).0, variable, "{value}");
        assert!(
            message.starts_with(&format!("environment variable {variable} is not")),
            "{message}"
        );
        assert!(!message.contains(value), "values are not echoed: {message}");
    }
}

#[test]
fn region_spellings() {
    for (name, region) in [
        ("na", Region::NorthAmerica),
        ("NA", Region::NorthAmerica),
        ("us", Region::NorthAmerica),
        ("North-America", Region::NorthAmerica),
        ("eu", Region::Europe),
        ("Europe", Region::Europe),
        (" asia\n", Region::Asia),
        ("APAC", Region::Asia),
    ] {
        assert_eq!(Region::from_name(name), Some(region), "{name}");
        let mut vars = complete();
        vars.insert(env::REGION, name.to_owned());
        assert!(from(&vars).is_ok(), "{name}");
    }
}

#[test]
fn the_base_url_override_makes_the_region_optional() {
    let mut vars = complete();
    vars.remove(env::REGION);
    vars.insert(env::BASE_URL, "http://127.0.0.1:8080".to_owned());
    let config = from(&vars).unwrap();
    assert!(format!("{config:?}").contains("base_url: Some(\"http://127.0.0.1:8080\")"));
    // An empty override is no override.
    vars.insert(env::BASE_URL, String::new());
    assert_eq!(
        env_error(from(&vars).unwrap_err()),
        (env::REGION, "is not set")
    );
}

#[test]
fn from_env_reads_the_process_environment() {
    // Only reads: whatever the environment holds, the answer is a
    // configuration or an Env error naming one of the variables.
    match Config::from_env() {
        Ok(_) => {}
        Err(Error::Env { variable, .. }) => assert!(variable.starts_with("RUCKUS_")),
        Err(other) => panic!("{other:?}"),
    }
}
