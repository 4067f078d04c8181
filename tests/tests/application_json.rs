//! The client changes nothing in how its user's own code decodes JSON.
//!
//! Cargo turns a dependency's features on for every crate of a build. serde_json's
//! `arbitrary_precision` makes numbers inside internally tagged and untagged enums fail to
//! decode as `f64` ("invalid type: map, expected f64"); the client used to turn it on. These
//! types are an application's, not the client's: with `ruckus-one` linked into this test, they
//! must decode as they do without it. The test fails if any crate of the build turns the
//! feature back on.

use serde::Deserialize;

#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "type")]
enum Reading {
    Temperature { celsius: f64 },
    Humidity { percent: u8 },
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(untagged)]
enum Setting {
    Level(f64),
    Name(String),
}

#[test]
fn an_application_internally_tagged_enum_with_a_float_decodes() {
    // The client is in this build: its runtime's serde_json is this test's serde_json.
    let _linked: fn(ruckus_one::Config) -> Result<ruckus_one::Client, ruckus_one::Error> =
        ruckus_one::Client::new;
    let reading: Reading =
        serde_json::from_str(r#"{"type":"Temperature","celsius":21.5}"#).unwrap();
    assert_eq!(reading, Reading::Temperature { celsius: 21.5 });
    let reading: Reading = serde_json::from_str(r#"{"type":"Humidity","percent":40}"#).unwrap();
    assert_eq!(reading, Reading::Humidity { percent: 40 });
}

#[test]
fn an_application_untagged_enum_with_a_float_decodes() {
    let level: Vec<Setting> = serde_json::from_str(r#"[0.75, "eco"]"#).unwrap();
    assert_eq!(level, [Setting::Level(0.75), Setting::Name("eco".into())]);
}
