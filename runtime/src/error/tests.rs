//! Tests of the error types.

use std::time::Duration;

use bytes::Bytes;
use serde_json::Value;

use super::*;
use crate::operation::ErrorFamily;
use crate::redact::Redactor;

#[test]
fn error_is_send_sync_static() {
    fn check<T: Send + Sync + std::error::Error + 'static>() {}
    check::<Error>();
    check::<ApiError>();
    check::<DecodeError>();
    check::<ActivityError>();
}

#[test]
fn error_stays_small() {
    assert!(
        std::mem::size_of::<Error>() <= 40,
        "{}",
        std::mem::size_of::<Error>()
    );
}

#[test]
fn helpers() {
    let none = Redactor::default();
    let e = Error::Api(ApiError::new(
        429,
        Some("rid"),
        Bytes::from_static(b"slow down"),
        false,
        ErrorFamily::ErrorsArray,
        &none,
    ));
    assert_eq!(e.status(), Some(429));
    assert_eq!(e.request_id(), Some("rid"));
    assert_eq!(e.raw_body(), Some(&b"slow down"[..]));
    assert!(e.is_retryable());
    assert!(e.api_error().is_some());
    assert_eq!(
        e.to_string(),
        "HTTP 429 Too Many Requests: slow down (request id rid)"
    );
    assert_eq!(e.code(), None);
    assert_eq!(e.message(), None);
    let e = Error::Api(ApiError::new(
        404,
        None,
        Bytes::new(),
        false,
        ErrorFamily::ErrorsArray,
        &none,
    ));
    assert!(!e.is_retryable());
    assert!(Error::Timeout.is_retryable());
    assert!(!Error::invalid("x").is_retryable());
    assert_eq!(Error::invalid("x").status(), None);
    let d = Error::Decode(DecodeError::new(
        200,
        None,
        "bad",
        Bytes::from_static(b"{"),
        &none,
    ));
    assert_eq!(d.status(), Some(200));
    assert_eq!(d.raw_body(), Some(&b"{"[..]));
    assert!(!d.is_retryable());
}

fn api(status: u16, request_id: Option<&str>, raw: &'static [u8]) -> Error {
    Error::Api(ApiError::new(
        status,
        request_id,
        Bytes::from_static(raw),
        false,
        ErrorFamily::ErrorsArray,
        &Redactor::default(),
    ))
}

#[test]
fn api_error_display_is_one_line() {
    let e = api(
        400,
        Some("abc"),
        br#"{"errors":[{"code":"WIFI-10001","message":"Venue\r\n  not found"}]}"#,
    );
    assert_eq!(
        e.to_string(),
        "HTTP 400 Bad Request: WIFI-10001: Venue not found (request id abc)"
    );
    assert_eq!(e.code(), Some("WIFI-10001"));
    assert_eq!(e.message(), Some("Venue\r\n  not found"));
    // The code only once when it is also the only text.
    let e = api(409, None, br#"{"errors":[{"code":"E-1"}]}"#);
    assert_eq!(e.to_string(), "HTTP 409 Conflict: E-1");
    // No code.
    let e = api(
        404,
        None,
        br#"{"status":"404 NOT_FOUND","message":"no group"}"#,
    );
    assert_eq!(e.to_string(), "HTTP 404 Not Found: no group");
    assert_eq!(e.code(), None);
    // Undecodable: the start of the body, on one line; unknown status.
    let e = api(599, Some("r"), b"<html>\n<body>oops</body>\n</html>");
    assert_eq!(
        e.to_string(),
        "HTTP 599: <html> <body>oops</body> </html> (request id r)"
    );
    let e = api(502, None, b"");
    assert_eq!(e.to_string(), "HTTP 502 Bad Gateway");
    let e = api(500, None, b"{}");
    assert_eq!(e.to_string(), "HTTP 500 Internal Server Error: {}");
    assert!(!api(400, None, &[b'x'; 5000]).to_string().contains('\n'));
}

#[test]
fn activity_errors_parse_json_in_the_error_text() {
    let failed = Error::activity(ActivityError::failed(
        "req",
        Some(
            r#"{"requestId":"req","errors":[{"code":"WIFI-10123","message":"VLAN in use","reason":"r"}]}"#,
        ),
        Value::Null,
        &Redactor::default(),
    ));
    let Error::Activity(activity) = &failed else {
        panic!("{failed:?}")
    };
    assert_eq!(activity.errors().len(), 1);
    assert_eq!(activity.errors()[0].reason.as_deref(), Some("r"));
    assert_eq!(failed.code(), Some("WIFI-10123"));
    assert_eq!(failed.message(), Some("VLAN in use"));
    assert_eq!(failed.entries(), activity.errors());
    assert_eq!(
        failed.to_string(),
        "activity req failed: WIFI-10123: VLAN in use"
    );
    let plain = Error::activity(ActivityError::failed(
        "req",
        Some("it broke"),
        Value::Null,
        &Redactor::default(),
    ));
    let Error::Activity(activity) = &plain else {
        panic!("{plain:?}")
    };
    assert!(activity.errors().is_empty());
    assert_eq!(activity.error_text(), Some("it broke"));
    assert_eq!(plain.code(), None);
    assert_eq!(plain.message(), Some("it broke"));
    let entries = plain.entries();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].message.as_deref(), Some("it broke"));
    assert_eq!(entries[0].code, None);
    assert_eq!(plain.to_string(), "activity req failed: it broke");
    let timeout = Error::activity(ActivityError::timed_out(
        "req",
        Duration::from_secs(1),
        None,
        &Redactor::default(),
    ));
    assert_eq!(timeout.code(), None);
    assert_eq!(timeout.message(), None);
    assert!(timeout.entries().is_empty());
    assert!(Error::Timeout.entries().is_empty());
}

#[test]
fn one_line_collapses_and_truncates() {
    assert_eq!(one_line(" a\r\n\tb  c ", 100), "a b c");
    assert_eq!(one_line("abcdef", 3), "abc…");
    assert_eq!(one_line("ab cd", 2), "ab…");
    assert_eq!(one_line("", 3), "");
}

#[test]
fn snippet_truncates_on_char_boundary() {
    let long = "é".repeat(300);
    let s = snippet(long.as_bytes());
    assert_eq!(s.chars().count(), 201);
    assert_eq!(snippet(b"\xff\xfe"), "\u{fffd}\u{fffd}");
}

/// Issue 48: the field of an MSP `errors` map reached `entries()` but not the one-line message.
#[test]
fn an_errors_map_shows_its_field_with_the_message() {
    let e = Error::Api(ApiError::new(
        400,
        Some("r-1"),
        Bytes::from_static(br#"{"errors": {"pageSize": "must be less than or equal to 500"}}"#),
        false,
        ErrorFamily::ErrorsMap,
        &Redactor::default(),
    ));
    assert_eq!(
        e.to_string(),
        "HTTP 400 Bad Request: pageSize: must be less than or equal to 500 (request id r-1)"
    );
    assert_eq!(e.message(), Some("must be less than or equal to 500"));
    // A validation entry's `field` too, after its code.
    let e = api(
        400,
        None,
        br#"{"errors":[{"code":"E-2","field":"name","message":"is blank"}]}"#,
    );
    assert_eq!(e.to_string(), "HTTP 400 Bad Request: E-2: name: is blank");
}
