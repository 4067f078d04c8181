//! Reading response bodies incrementally, up to a limit.

use bytes::{Bytes, BytesMut};

/// A body read up to a limit.
pub(crate) struct Limited {
    pub(crate) bytes: Bytes,
    /// Whether the body is longer than the limit: `bytes` is then its start
    /// (or nothing, when `Content-Length` said so before reading).
    pub(crate) exceeded: bool,
}

/// Reads the body of `response` chunk by chunk, keeping at most `limit`
/// bytes and reading no further once the limit is passed. With
/// `stop_early`, a `Content-Length` over the limit stops before anything is
/// read; otherwise the first `limit` bytes are kept.
pub(crate) async fn read_limited(
    response: &mut reqwest::Response,
    limit: usize,
    stop_early: bool,
) -> Result<Limited, reqwest::Error> {
    let announced = response.content_length();
    if stop_early && announced.is_some_and(|n| n > limit as u64) {
        return Ok(Limited {
            bytes: Bytes::new(),
            exceeded: true,
        });
    }
    // Reserve what was announced, within the limit and without trusting a
    // large announcement blindly.
    let reserve = announced
        .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX))
        .min(limit)
        .min(16 * 1024 * 1024);
    // Most answers arrive in one chunk: kept as is, without a copy.
    let Some(first) = response.chunk().await? else {
        return Ok(Limited {
            bytes: Bytes::new(),
            exceeded: false,
        });
    };
    if first.len() > limit {
        return Ok(Limited {
            bytes: first.slice(..limit),
            exceeded: true,
        });
    }
    let Some(second) = response.chunk().await? else {
        return Ok(Limited {
            bytes: first,
            exceeded: false,
        });
    };
    let mut buf = BytesMut::with_capacity(reserve.max(first.len() + second.len()));
    buf.extend_from_slice(&first);
    let mut next = Some(second);
    while let Some(chunk) = match next.take() {
        Some(chunk) => Some(chunk),
        None => response.chunk().await?,
    } {
        let room = limit - buf.len();
        if chunk.len() > room {
            buf.extend_from_slice(&chunk[..room]);
            return Ok(Limited {
                bytes: buf.freeze(),
                exceeded: true,
            });
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(Limited {
        bytes: buf.freeze(),
        exceeded: false,
    })
}
