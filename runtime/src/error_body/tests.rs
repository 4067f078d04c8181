//! Tests of error body decoding.

use super::decode::ORDER;
use super::*;
use crate::operation::ErrorFamily;

const ALL: [ErrorFamily; 6] = ORDER;

#[test]
fn errors_array() {
    let raw = br#"{"requestId":"r1","errors":[{"code":"WIFI-1","message":"m","reason":"r","suggestion":"s","extra":1},{"code":42}]}"#;
    let (body, rid) = decode(ErrorFamily::ErrorsArray, raw);
    assert_eq!(rid.as_deref(), Some("r1"));
    let ErrorBody::ErrorsArray(b) = &body else {
        panic!("{body:?}")
    };
    assert_eq!(b.errors.len(), 2);
    assert_eq!(b.errors[0].code.as_deref(), Some("WIFI-1"));
    assert_eq!(b.errors[0].suggestion.as_deref(), Some("s"));
    assert_eq!(b.errors[1].code.as_deref(), Some("42"));
    assert_eq!(body.message(), Some("m"));
    assert_eq!(body.code(), Some("WIFI-1"));
}

#[test]
fn errors_array_of_strings() {
    // The venue service declares its `errors` entries as strings.
    let (body, _) = decode(ErrorFamily::ErrorsArray, br#"{"errors":["no such venue"]}"#);
    assert_eq!(body.message(), Some("no such venue"));
    assert_eq!(body.code(), None);
}

#[test]
fn error_object() {
    let raw = br#"{"error":{"code":"E1","reason":"why","suggestion":"do"},"requestId":"r2"}"#;
    let (body, rid) = decode(ErrorFamily::ErrorObject, raw);
    assert_eq!(rid.as_deref(), Some("r2"));
    let ErrorBody::ErrorObject(b) = &body else {
        panic!("{body:?}")
    };
    assert_eq!(b.error.reason.as_deref(), Some("why"));
    assert_eq!(body.message(), Some("why"));
    assert_eq!(body.code(), Some("E1"));
}

#[test]
fn status_message() {
    let raw = br#"{"status":"BAD_REQUEST","timestamp":"t","message":"bad","debugMessage":"dbg","subErrors":[{"field":"x"}]}"#;
    let (body, rid) = decode(ErrorFamily::StatusMessage, raw);
    assert_eq!(rid, None);
    let ErrorBody::StatusMessage(b) = &body else {
        panic!("{body:?}")
    };
    assert_eq!(b.status.as_deref(), Some("BAD_REQUEST"));
    assert_eq!(b.debug_message.as_deref(), Some("dbg"));
    assert_eq!(b.sub_errors.len(), 1);
    assert_eq!(body.code(), None);
}

#[test]
fn status_message_keeps_status_strings_and_numbers() {
    for (raw, status) in [
        (
            &br#"{"status":"400 BAD_REQUEST","message":"m"}"#[..],
            "400 BAD_REQUEST",
        ),
        (
            br#"{"status":400,"error":"Bad Request","path":"/x"}"#,
            "400",
        ),
    ] {
        let (body, _) = decode(ErrorFamily::ErrorsArray, raw);
        let ErrorBody::StatusMessage(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.status.as_deref(), Some(status));
    }
}

#[test]
fn status_message_with_errors_and_nested_errors() {
    // Identity services add `requestId` and an `errors` array; workflows
    // and message templates send `nestedErrors`.
    let raw = br#"{"status":"404 NOT_FOUND","message":"gone","requestId":"r","errors":[{"code":"IDM-4","message":"no group"}],"nestedErrors":[{"field":"a"}]}"#;
    let (body, rid) = decode(ErrorFamily::StatusMessage, raw);
    assert_eq!(rid.as_deref(), Some("r"));
    let ErrorBody::StatusMessage(b) = &body else {
        panic!("{body:?}")
    };
    assert_eq!(b.request_id.as_deref(), Some("r"));
    assert_eq!(b.nested_errors.len(), 1);
    assert_eq!(body.code(), Some("IDM-4"));
    assert_eq!(body.message(), Some("gone"));
}

#[test]
fn flat_object() {
    let raw = br#"{"code":"ENT-404","message":"no tenant","reason":"r","suggestion":"s"}"#;
    let (body, _) = decode(ErrorFamily::FlatObject, raw);
    let ErrorBody::FlatObject(b) = &body else {
        panic!("{body:?}")
    };
    assert_eq!(b.error.suggestion.as_deref(), Some("s"));
    assert_eq!(body.code(), Some("ENT-404"));
    assert_eq!(body.message(), Some("no tenant"));
}

#[test]
fn errors_map() {
    let raw = br#"{"errors":{"name":"must not be blank","age":{"message":"too old"},"x":{"n":1},"gone":null}}"#;
    let (body, _) = decode(ErrorFamily::ErrorsMap, raw);
    let ErrorBody::ErrorsMap(b) = &body else {
        panic!("{body:?}")
    };
    assert_eq!(b.errors.len(), 3);
    assert_eq!(b.errors["name"], "must not be blank");
    assert_eq!(b.errors["age"], "too old");
    assert_eq!(b.errors["x"], r#"{"n":1}"#);
    assert_eq!(body.message(), Some("too old")); // key order: age, name, x
    assert_eq!(body.code(), None);
    assert_eq!(body.entries().len(), 3);
    assert_eq!(body.entries()[0].message.as_deref(), Some("too old"));
    assert_eq!(body.entries()[0].field.as_deref(), Some("age"));
}

#[test]
fn portal() {
    let raw = br#"{"status":"400 BAD_REQUEST","timestamp":"t","message":"invalid","detailedMessage":"d","validationErrors":["a is empty",5]}"#;
    let (body, _) = decode(ErrorFamily::Portal, raw);
    let ErrorBody::Portal(b) = &body else {
        panic!("{body:?}")
    };
    assert_eq!(b.status.as_deref(), Some("400 BAD_REQUEST"));
    assert_eq!(b.detailed_message.as_deref(), Some("d"));
    assert_eq!(b.validation_errors, ["a is empty", "5"]);
    assert_eq!(body.message(), Some("invalid"));
    let (body, _) = decode(ErrorFamily::Portal, br#"{"validationErrors":["only"]}"#);
    assert_eq!(body.message(), Some("only"));
}

/// Each family's body is decoded as that family whatever the declared
/// family is.
#[test]
fn every_shape_decodes_through_every_declaration() {
    let samples: [(ErrorFamily, &[u8]); 6] = [
        (ErrorFamily::ErrorsArray, br#"{"errors":[{"code":"A"}]}"#),
        (ErrorFamily::ErrorObject, br#"{"error":{"code":"B"}}"#),
        (ErrorFamily::FlatObject, br#"{"code":"C","message":"m"}"#),
        (ErrorFamily::ErrorsMap, br#"{"errors":{"f":"m"}}"#),
        (
            ErrorFamily::Portal,
            br#"{"status":"400 BAD_REQUEST","detailedMessage":"d"}"#,
        ),
        (ErrorFamily::StatusMessage, br#"{"status":"BAD_REQUEST"}"#),
    ];
    for (shape, raw) in samples {
        for declared in ALL {
            let (body, _) = decode(declared, raw);
            let found = match body {
                ErrorBody::ErrorsArray(_) => ErrorFamily::ErrorsArray,
                ErrorBody::ErrorObject(_) => ErrorFamily::ErrorObject,
                ErrorBody::FlatObject(_) => ErrorFamily::FlatObject,
                ErrorBody::ErrorsMap(_) => ErrorFamily::ErrorsMap,
                ErrorBody::Portal(_) => ErrorFamily::Portal,
                ErrorBody::StatusMessage(_) => ErrorFamily::StatusMessage,
                ErrorBody::Raw => panic!("{declared:?} {}", String::from_utf8_lossy(raw)),
            };
            assert_eq!(found, shape, "declared {declared:?}");
        }
    }
}

#[test]
fn a_lone_message_is_a_status_message_when_nothing_else_matches() {
    for declared in ALL {
        let (body, _) = decode(declared, br#"{"message":"Forbidden"}"#);
        assert!(matches!(body, ErrorBody::StatusMessage(_)), "{body:?}");
        assert_eq!(body.message(), Some("Forbidden"));
        let (body, _) = decode(declared, br#"{"message":"m","code":"C"}"#);
        assert!(matches!(body, ErrorBody::FlatObject(_)), "{body:?}");
    }
}

#[test]
fn declared_family_wins_when_several_match() {
    let raw = br#"{"status":"400 BAD_REQUEST","message":"m","errors":[{"code":"X"}]}"#;
    assert!(matches!(
        decode(ErrorFamily::StatusMessage, raw).0,
        ErrorBody::StatusMessage(_)
    ));
    assert!(matches!(
        decode(ErrorFamily::Portal, raw).0,
        ErrorBody::ErrorsArray(_)
    ));
}

#[test]
fn mismatches_are_raw() {
    for family in ALL {
        for raw in [
            &b""[..],
            b"not json",
            b"[1,2]",
            b"{}",
            b"\"text\"",
            b"{\"unrelated\":true}",
            br#"{"errors":"nope"}"#,
            br#"{"error":5}"#,
            br#"{"error":"a string is not the error object"}"#,
            br#"{"code":null,"status":true,"message":7,"detailedMessage":[]}"#,
        ] {
            assert_eq!(decode(family, raw).0, ErrorBody::Raw);
        }
    }
}

#[test]
fn details_of_error_texts() {
    let d = details_of_text(r#"{"errors":[{"code":"WIFI-1","message":"m"}]}"#);
    assert_eq!(d[0].code.as_deref(), Some("WIFI-1"));
    let d = details_of_text(r#"{"code":"WIFI-2","message":"m2"}"#);
    assert_eq!(d[0].code.as_deref(), Some("WIFI-2"));
    let d = details_of_text(r#" [{"code":"A","message":"a"},{"message":"b"},{"x":1},3]"#);
    assert_eq!(d.len(), 2);
    assert_eq!(d[1].message.as_deref(), Some("b"));
    let d = details_of_text(r#"{"message":"only text"}"#);
    assert_eq!(d[0].message.as_deref(), Some("only text"));
    for text in ["plain words", "", "{}", "5", r#"{"x":1}"#] {
        assert!(details_of_text(text).is_empty(), "{text}");
    }
}

#[test]
fn deep_nesting_does_not_panic() {
    let raw = "[".repeat(100_000);
    assert_eq!(
        decode(ErrorFamily::ErrorsArray, raw.as_bytes()).0,
        ErrorBody::Raw
    );
    assert!(details_of_text(&raw).is_empty());
}
