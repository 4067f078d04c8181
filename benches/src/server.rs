//! The local HTTP/1.1 server both clients call: canned JSON bodies of realistic size, a token
//! endpoint that counts its requests, 100 pages of APs and activities that finish after a given
//! number of polls.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

/// Items per page, as in the service's default page size.
pub const PAGE_SIZE: usize = 25;
/// Full pages served; page `PAGES + 1` and later are empty.
pub const PAGES: usize = 100;

/// What the server answers, and what it counted.
pub struct State {
    token_requests: AtomicUsize,
    token: Bytes,
    /// `pages[n - 1]` is page `n`; the last entry is the empty page.
    pages: Vec<Bytes>,
    ap: Bytes,
    /// Polls seen per activity id.
    activities: Mutex<HashMap<String, u32>>,
}

impl State {
    fn new() -> State {
        let mut pages: Vec<Bytes> = (1..=PAGES).map(|n| page(n, PAGE_SIZE)).collect();
        pages.push(page(PAGES + 1, 0));
        State {
            token_requests: AtomicUsize::new(0),
            token: Bytes::from(
                json!({"access_token": "bench-token", "token_type": "Bearer", "expires_in": 3600})
                    .to_string(),
            ),
            pages,
            ap: Bytes::from(access_point(7, 3).to_string()),
            activities: Mutex::new(HashMap::new()),
        }
    }

    /// Token requests answered since the last call.
    pub fn take_token_requests(&self) -> usize {
        self.token_requests.swap(0, Ordering::SeqCst)
    }

    /// Size of one 25-AP page, in bytes.
    pub fn page_bytes(&self) -> usize {
        self.pages[0].len()
    }

    /// Page `n` (1-based) as served.
    pub fn page(&self, n: usize) -> Bytes {
        self.pages[n.clamp(1, self.pages.len()) - 1].clone()
    }

    /// Size of one AP, in bytes.
    pub fn ap_bytes(&self) -> usize {
        self.ap.len()
    }
}

/// One AP as the service describes it: the typed fields of `AccessPoint` and the usual
/// untyped ones (about 1 KB of JSON).
pub fn access_point(page: usize, index: usize) -> Value {
    let n = page * 1000 + index;
    json!({
        "serialNumber": format!("3021390{n:05}"),
        "name": format!("AP-Floor{}-{:03}", page % 7 + 1, index),
        "description": "Ceiling mount, north corridor",
        "model": if index % 3 == 0 { "R770" } else { "R650" },
        "venueId": format!("8e0a1f2b3c4d4e5f8a9b{:012x}", page),
        "venueName": "Headquarters",
        "apGroupId": format!("c41d2e3f4a5b4c6d7e8f{:012x}", index % 4),
        "apGroupName": "Default",
        "status": "2_00_Operational",
        "deviceStatus": "ONLINE",
        "firmwareVersion": "7.0.0.200.1234",
        "IP": format!("10.{}.{}.{}", page % 250, index, n % 250),
        "extIp": "203.0.113.7",
        "apMac": format!("94:B3:4F:{:02X}:{:02X}:{:02X}", page % 256, index, n % 256),
        "clientCount": (n * 7) % 60,
        "meshRole": "DISABLED",
        "uptimeSeconds": 86_400 + n,
        "lastSeenTime": "2026-01-01T12:00:00.000Z",
        "lastUpdateTime": "2026-01-01T11:59:30.000Z",
        "tags": ["lobby", format!("floor-{}", page % 7 + 1)],
        "bssColoring": {"bssColoringEnabled": true, "useVenueSettings": true},
        "clientAdmissionControl": {
            "enable24G": false, "enable50G": true,
            "maxRadioLoad24G": 75, "maxRadioLoad50G": 75,
            "minClientCount24G": 10, "minClientCount50G": 20,
            "minClientThroughput24G": 0, "minClientThroughput50G": 0,
            "useVenueSettings": true
        },
        "radioStatus": {
            "channel24G": "6", "channel50G": "36", "channel6G": "37",
            "txPower24G": "Auto", "txPower50G": "Auto", "rssi": -42 - (index as i64 % 20)
        },
        "position": {
            "floorplanId": format!("f1e2d3c4b5a64798{:016x}", page),
            "xPercent": (index as f64) * 3.5,
            "yPercent": 40.25
        },
        "networkStatus": {"ipType": "DYNAMIC", "netmask": "255.255.255.0", "gateway": "10.0.0.1"}
    })
}

/// Page `n` of the AP query with `items` items (the `QueryResult` shape: `totalCount`, `page`,
/// `data`).
fn page(n: usize, items: usize) -> Bytes {
    let data: Vec<Value> = (0..items).map(|i| access_point(n, i)).collect();
    Bytes::from(json!({"totalCount": PAGES * PAGE_SIZE, "page": n, "data": data}).to_string())
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    pub state: Arc<State>,
}

impl Server {
    /// The base URL of the server (`http://127.0.0.1:port`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

/// Starts the server on its own runtime (two worker threads), so its work is not scheduled
/// among the callers' tasks.
pub fn start() -> Server {
    let state = Arc::new(State::new());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-server")
        .enable_all()
        .build()
        .expect("server runtime");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind 127.0.0.1");
    let addr = listener.local_addr().expect("local address");
    let served = state.clone();
    std::thread::spawn(move || {
        runtime.block_on(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let state = served.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |req| handle(state.clone(), req));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        })
    });
    Server { addr, state }
}

async fn handle(
    state: Arc<State>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = req.into_parts();
    let body = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => return Ok(answer(StatusCode::BAD_REQUEST, Bytes::new())),
    };
    let path = parts.uri.path();
    let ok = |bytes: &Bytes| Ok(answer(StatusCode::OK, bytes.clone()));
    match (&parts.method, path) {
        (&Method::POST, "/oauth2/token") => {
            state.token_requests.fetch_add(1, Ordering::SeqCst);
            ok(&state.token)
        }
        (&Method::POST, "/venues/aps/query") => {
            let n = page_number(&body).unwrap_or(1).max(1);
            ok(&state.pages[n.min(state.pages.len()) - 1])
        }
        (&Method::GET, p) if p.starts_with("/venues/") && p.contains("/aps/") => ok(&state.ap),
        // The smallest answer: an empty JSON object.
        (&Method::GET, "/activities/empty") => ok(&Bytes::from_static(b"{}")),
        (&Method::GET, p) if p.starts_with("/activities/") => {
            let id = &p["/activities/".len()..];
            Ok(answer(StatusCode::OK, activity(&state, id)))
        }
        _ => Ok(answer(StatusCode::NOT_FOUND, Bytes::new())),
    }
}

/// The `page` field of a JSON query body, found without parsing it.
fn page_number(body: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(body).ok()?;
    let at = text.find("\"page\":")? + "\"page\":".len();
    let digits: String = text[at..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The activity `id` (`<anything>-<polls>`): `INPROGRESS` until it has been polled `polls`
/// times, then `SUCCESS`.
fn activity(state: &State, id: &str) -> Bytes {
    let needed: u32 = id
        .rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let seen = {
        let mut polls = state.activities.lock().unwrap_or_else(|e| e.into_inner());
        let seen = polls.entry(id.to_owned()).or_insert(0);
        *seen += 1;
        let now = *seen;
        if now >= needed {
            polls.remove(id);
        }
        now
    };
    let status = if seen >= needed {
        "SUCCESS"
    } else {
        "INPROGRESS"
    };
    Bytes::from(
        json!({
            "requestId": id,
            "status": status,
            "useCase": "UpdateAp",
            "startDatetime": "2026-01-01T12:00:00.000Z",
            "steps": [{"id": "step-1", "status": status, "description": "Update AP configuration"}]
        })
        .to_string(),
    )
}

fn answer(status: StatusCode, body: Bytes) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}
