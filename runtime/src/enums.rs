//! Support for generated enums that must tolerate values added by the server.

use std::fmt;

/// A wire value of an enumeration that this client version does not know.
///
/// Generated enums keep such values in a catch-all variant so that decoding
/// a response never fails because the service added a new value; the
/// original text is available with [`UnknownValue::as_str`] and is sent back
/// unchanged when the value is serialized again.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnknownValue(String);

impl UnknownValue {
    /// Wraps a wire value. Used by generated code.
    #[doc(hidden)]
    pub fn new(value: String) -> Self {
        UnknownValue(value)
    }

    /// The value exactly as received.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl serde::Serialize for UnknownValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::UnknownValue;

    #[test]
    fn keeps_text() {
        let v = UnknownValue::new("NEW_STATE".to_owned());
        assert_eq!(v.as_str(), "NEW_STATE");
        assert_eq!(v.to_string(), "NEW_STATE");
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"NEW_STATE\"");
        assert!(UnknownValue::new("a".into()) < UnknownValue::new("b".into()));
    }
}
