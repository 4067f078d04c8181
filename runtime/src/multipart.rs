//! `multipart/form-data` bodies, encoded up front so a request can be
//! repeated.

use std::fmt;

use bytes::{BufMut, Bytes, BytesMut};

/// A `multipart/form-data` request body.
///
/// ```
/// # extern crate ruckus_one_runtime as ruckus_one;
/// use ruckus_one::Multipart;
/// let form = Multipart::new()
///     .text("name", "floor 1")
///     .file("file", "plan.png", "image/png", vec![0x89, b'P', b'N', b'G']);
/// # let _ = form;
/// ```
///
/// The body is encoded into memory when it is attached to a request, so it
/// can be sent again on retry. The request's `Content-Type` is
/// `multipart/form-data; boundary=...` with a random boundary that does not
/// occur in any part.
#[derive(Clone, Default)]
pub struct Multipart {
    parts: Vec<Part>,
}

#[derive(Clone)]
struct Part {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
    data: Bytes,
}

impl Multipart {
    /// An empty form.
    pub fn new() -> Self {
        Multipart::default()
    }

    /// Adds a text field.
    pub fn text(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.parts.push(Part {
            name: name.into(),
            filename: None,
            content_type: None,
            data: Bytes::from(value.into()),
        });
        self
    }

    /// Adds a file field with its file name and media type.
    pub fn file(
        mut self,
        name: impl Into<String>,
        filename: impl Into<String>,
        content_type: impl Into<String>,
        bytes: impl Into<Bytes>,
    ) -> Self {
        self.parts.push(Part {
            name: name.into(),
            filename: Some(filename.into()),
            content_type: Some(content_type.into()),
            data: bytes.into(),
        });
        self
    }

    /// Encodes the form; returns the `Content-Type` value and the body.
    pub(crate) fn encode(&self) -> Result<(String, Bytes), String> {
        for part in &self.parts {
            if let Some(ct) = &part.content_type {
                if ct.is_empty() || ct.bytes().any(|b| b.is_ascii_control() || b >= 0x80) {
                    return Err(format!(
                        "multipart part `{}` has an invalid content type",
                        part.name
                    ));
                }
            }
        }
        let boundary = self.pick_boundary();
        let mut out = BytesMut::new();
        for part in &self.parts {
            out.put_slice(b"--");
            out.put_slice(boundary.as_bytes());
            out.put_slice(b"\r\nContent-Disposition: form-data; name=\"");
            out.put_slice(escape_quoted(&part.name).as_bytes());
            out.put_slice(b"\"");
            if let Some(filename) = &part.filename {
                out.put_slice(b"; filename=\"");
                out.put_slice(escape_quoted(filename).as_bytes());
                out.put_slice(b"\"");
            }
            out.put_slice(b"\r\n");
            if let Some(ct) = &part.content_type {
                out.put_slice(b"Content-Type: ");
                out.put_slice(ct.as_bytes());
                out.put_slice(b"\r\n");
            }
            out.put_slice(b"\r\n");
            out.put_slice(&part.data);
            out.put_slice(b"\r\n");
        }
        out.put_slice(b"--");
        out.put_slice(boundary.as_bytes());
        out.put_slice(b"--\r\n");
        Ok((
            format!("multipart/form-data; boundary={boundary}"),
            out.freeze(),
        ))
    }

    fn pick_boundary(&self) -> String {
        loop {
            let boundary = format!(
                "ruckus-one-{:016x}{:016x}",
                crate::retry::random_u64(),
                crate::retry::random_u64()
            );
            let clash = self.parts.iter().any(|p| {
                contains(&p.data, boundary.as_bytes())
                    || p.name.contains(&boundary)
                    || p.filename.as_deref().is_some_and(|f| f.contains(&boundary))
            });
            if !clash {
                return boundary;
            }
        }
    }
}

impl fmt::Debug for Multipart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for part in &self.parts {
            list.entry(&format_args!(
                "{:?} ({} bytes{})",
                part.name,
                part.data.len(),
                part.filename
                    .as_deref()
                    .map(|n| format!(", file {n:?}"))
                    .unwrap_or_default()
            ));
        }
        list.finish()
    }
}

/// Escapes a field or file name for a quoted header parameter, as browsers
/// do: `"` becomes `%22`, CR `%0D`, LF `%0A`.
fn escape_quoted(value: &str) -> String {
    value
        .replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_parts() {
        let (ct, body) = Multipart::new()
            .text("na\"me", "value")
            .file("file", "a\r\nb.txt", "text/plain", &b"hello"[..])
            .encode()
            .unwrap();
        let boundary = ct.strip_prefix("multipart/form-data; boundary=").unwrap();
        let body = String::from_utf8(body.to_vec()).unwrap();
        let expected = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"na%22me\"\r\n\r\nvalue\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a%0D%0Ab.txt\"\r\n\
             Content-Type: text/plain\r\n\r\nhello\r\n--{boundary}--\r\n"
        );
        assert_eq!(body, expected);
    }

    #[test]
    fn rejects_bad_content_type() {
        let err = Multipart::new()
            .file("f", "x", "text/plain\r\nX-Evil: 1", Bytes::new())
            .encode()
            .unwrap_err();
        assert!(err.contains("content type"));
    }

    #[test]
    fn empty_form() {
        let (ct, body) = Multipart::new().encode().unwrap();
        let boundary = ct.strip_prefix("multipart/form-data; boundary=").unwrap();
        assert_eq!(body, format!("--{boundary}--\r\n").as_bytes());
    }
}
