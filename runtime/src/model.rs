//! Support for generated models.

use std::fmt;

/// A required field was not set before a generated model builder's `build`.
///
/// Models with more than three required fields are built with `Type::builder()`, one setter
/// per field, then `build()`, which returns this error naming the first required field left
/// unset (by its wire name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MissingField {
    model: &'static str,
    field: &'static str,
}

impl MissingField {
    /// The error for `field` (wire name) of `model` (type name). Used by generated code.
    #[doc(hidden)]
    pub const fn new(model: &'static str, field: &'static str) -> Self {
        MissingField { model, field }
    }

    /// The model's type name, e.g. `CreateScheduleRequest`.
    pub fn model(&self) -> &'static str {
        self.model
    }

    /// The wire name of the required field that was not set, e.g. `frequency`.
    pub fn field(&self) -> &'static str {
        self.field
    }
}

impl fmt::Display for MissingField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` needs the required field `{}`; set it on the builder",
            self.model, self.field
        )
    }
}

impl std::error::Error for MissingField {}

#[cfg(test)]
mod tests {
    use super::MissingField;

    #[test]
    fn names_the_model_and_the_wire_field() {
        let e = MissingField::new("CreateScheduleRequest", "frequency");
        assert_eq!(e.model(), "CreateScheduleRequest");
        assert_eq!(e.field(), "frequency");
        assert_eq!(
            e.to_string(),
            "`CreateScheduleRequest` needs the required field `frequency`; set it on the builder"
        );
        let boxed: Box<dyn std::error::Error> = Box::new(e);
        assert!(boxed.to_string().contains("frequency"));
    }
}
