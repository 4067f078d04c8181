//! A small HTTP/1.1 server on 127.0.0.1 running on the test's own tokio runtime, so that it
//! sees the test's (paused) clock: it answers the token endpoint itself and every other
//! request with a handler, and logs every request with the time it arrived.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

/// One request the server received.
#[derive(Clone, Debug)]
pub struct Hit {
    pub method: String,
    pub path: String,
    pub tenant: Option<String>,
    pub body: Vec<u8>,
    pub at: Instant,
    /// The status it was answered with.
    pub status: u16,
}

impl Hit {
    pub fn is_token(&self) -> bool {
        self.path.starts_with("/oauth2/token")
    }
}

/// An answer: status, extra headers, JSON body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
    /// Sent this long after the request arrived (on the test's clock).
    pub delay: std::time::Duration,
}

impl Answer {
    pub fn json(status: u16, body: impl Into<String>) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: body.into(),
            delay: std::time::Duration::ZERO,
        }
    }

    /// Answers only after `delay`.
    pub fn after(mut self, delay: std::time::Duration) -> Answer {
        self.delay = delay;
        self
    }

    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Answer {
        self.headers.push((name, value.into()));
        self
    }
}

type Handler = Arc<dyn Fn(&Hit) -> Answer + Send + Sync>;

pub struct Loopback {
    pub url: String,
    pub hits: Arc<Mutex<Vec<Hit>>>,
}

impl Loopback {
    pub async fn start(handler: impl Fn(&Hit) -> Answer + Send + Sync + 'static) -> Loopback {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let hits = Arc::new(Mutex::new(Vec::new()));
        let handler: Handler = Arc::new(handler);
        let log = hits.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, handler.clone(), log.clone()));
            }
        });
        Loopback { url, hits }
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().expect("hits").clone()
    }

    /// Requests other than token requests.
    pub fn calls(&self) -> Vec<Hit> {
        self.hits().into_iter().filter(|h| !h.is_token()).collect()
    }

    pub fn token_requests(&self) -> usize {
        self.hits().iter().filter(|h| h.is_token()).count()
    }
}

async fn serve(mut stream: TcpStream, handler: Handler, log: Arc<Mutex<Vec<Hit>>>) {
    let mut buf = Vec::new();
    loop {
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        let mut first = lines.next().unwrap_or("").split(' ');
        let method = first.next().unwrap_or("").to_owned();
        let path = first.next().unwrap_or("").to_owned();
        let mut length = 0usize;
        let mut tenant = None;
        for line in lines {
            if let Some((name, value)) = line.split_once(':') {
                let value = value.trim();
                match name.to_ascii_lowercase().as_str() {
                    "content-length" => length = value.parse().unwrap_or(0),
                    "x-rks-tenantid" => tenant = Some(value.to_owned()),
                    _ => {}
                }
            }
        }
        while buf.len() < head_end + length {
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let body = buf[head_end..head_end + length].to_vec();
        buf.drain(..head_end + length);
        let mut hit = Hit {
            method,
            path,
            tenant,
            body,
            at: Instant::now(),
            status: 0,
        };
        let answer = if hit.is_token() {
            Answer::json(
                200,
                r#"{"access_token":"loopback-token","token_type":"bearer","expires_in":3600}"#,
            )
        } else {
            handler(&hit)
        };
        hit.status = answer.status;
        log.lock().expect("hits").push(hit);
        let mut out = format!(
            "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            answer.status,
            answer.body.len()
        );
        for (name, value) in &answer.headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str("\r\n");
        out.push_str(&answer.body);
        if !answer.delay.is_zero() {
            tokio::time::sleep(answer.delay).await;
        }
        if stream.write_all(out.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// A server-side token bucket (the service's limit), on the test's clock.
pub struct ServerBucket {
    max: f64,
    per_second: f64,
    state: Mutex<(f64, Instant)>,
}

impl ServerBucket {
    pub fn new(max: u32, per_second: u32) -> ServerBucket {
        ServerBucket {
            max: f64::from(max),
            per_second: f64::from(per_second),
            state: Mutex::new((f64::from(max), Instant::now())),
        }
    }

    /// Takes one call; false when the bucket is empty (the service would answer 429).
    pub fn take(&self) -> bool {
        let mut state = self.state.lock().expect("bucket");
        let now = Instant::now();
        let elapsed = now.duration_since(state.1).as_secs_f64();
        state.0 = (state.0 + elapsed * self.per_second).min(self.max);
        state.1 = now;
        if state.0 >= 1.0 {
            state.0 -= 1.0;
            true
        } else {
            false
        }
    }
}
