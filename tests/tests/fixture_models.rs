//! Behaviour of generated models (from the `shapes` fixture): open objects keep the fields
//! the document does not show, enums keep values the client does not know.

use ruckus_one_tests::fixtures::shapes::demo::{Awkward, Colour, Everything, Partial};
use serde_json::json;

#[test]
fn open_objects_keep_and_send_fields_the_spec_does_not_name() {
    let wire = json!({"known": "k", "vlan": 12, "tags": ["a"]});
    let partial: Partial = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(partial.known, "k");
    assert_eq!(partial.additional_fields["vlan"], json!(12));
    assert_eq!(
        serde_json::to_value(&partial).unwrap(),
        wire,
        "round trip is lossless"
    );

    let mut built = Partial::new("x".to_owned());
    built
        .additional_fields
        .insert("extra".to_owned(), json!(true).into());
    assert_eq!(
        serde_json::to_value(&built).unwrap(),
        json!({"known": "x", "extra": true})
    );
}

#[test]
fn enums_keep_unknown_values_and_map_awkward_ones() {
    let c: Colour = serde_json::from_value(json!("ultraviolet")).unwrap();
    assert!(matches!(c, Colour::Unknown(_)));
    assert_eq!(c.as_str(), "ultraviolet");
    assert_eq!(serde_json::to_value(&c).unwrap(), json!("ultraviolet"));
    assert_eq!(Colour::from("Not triggered"), Colour::NotTriggered);
    assert_eq!(Colour::from("2048"), Colour::V2048);
    assert_eq!(
        Colour::from("Unknown").as_str(),
        "Unknown",
        "a wire value named Unknown is a known value"
    );
    assert!(!matches!(Colour::from("Unknown"), Colour::Unknown(_)));
}

#[test]
fn required_fields_are_required_and_optional_ones_are_skipped_when_empty() {
    assert!(
        serde_json::from_value::<Everything>(json!({"must": null})).is_err(),
        "`id` is required"
    );
    let e: Everything =
        serde_json::from_value(json!({"id": "1", "must": null, "secret": "s3"})).unwrap();
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"id": "1", "must": null, "secret": "s3"})
    );
    assert!(
        !format!("{e:?}").contains("s3"),
        "secret fields are redacted in Debug"
    );
}

#[test]
fn optional_fields_are_set_with_with_methods() {
    let e = Everything::new("1".to_owned())
        .with_count(3)
        .with_small(2)
        .with_note("n")
        .with_must("m")
        .with_secret("s3")
        .with_tags(vec!["a".to_owned()])
        .with_colour("light-blue");
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({
            "id": "1", "count": 3, "small": 2, "note": "n", "must": "m", "secret": "s3",
            "tags": ["a"], "colour": "light-blue",
        })
    );
    assert_eq!(e.colour, Some(Colour::LightBlue));

    // Every field optional: `Default` and `new()` agree; awkward names read plainly.
    assert_eq!(Awkward::default(), Awkward::new());
    let a = Awkward::new()
        .with_type("t")
        .with_self("s")
        .with_n_2fa(true);
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        json!({"type": "t", "self": "s", "2fa": true})
    );
}
