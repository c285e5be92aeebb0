//! A big performance log is read in blocks parsed in parallel: what that gives must be what
//! one pass over the whole buffer gives, record by record and line by line, for every family,
//! whatever the block cuts fall on — a quoted JMeter field spanning lines, a
//! header that changes the columns part-way, a JMeter XML request over many lines, floods of
//! empty lines (`\n` and `\r\n`).

use gcperf::frame::perf as c;
use gcperf::load::{load_any, Input};
use gcperf::parse::jmeter_xml::JMETER_XML;
use gcperf::parse::perf::{self, GRINDER, JMETER_JTL, SEMICOLON};
use std::io::Write;

/// A small deterministic generator (xorshift), so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Empty lines now and then: a few, or a flood of tens of thousands (`\n` or `\r\n`).
fn blanks(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(400) {
        0 => out.extend(std::iter::repeat_n(
            b'\n',
            20_000 + rng.below(50_000) as usize,
        )),
        1 => {
            for _ in 0..10_000 + rng.below(30_000) {
                out.extend(b"\r\n");
            }
        }
        2..=5 => out.extend(std::iter::repeat_n(b'\n', 1 + rng.below(40) as usize)),
        _ => {}
    }
}

/// A JTL of ~9 MB: JMeter's default header, then from two thirds on a header of its own
/// order; most failed samples carry a quoted message of several lines and up to 4 KB (so
/// most block cuts at a line end fall inside one), quotes doubled inside, commas, stray
/// unclosed quotes, rows that cannot be read.
fn jtl(rng: &mut Rng) -> Vec<u8> {
    jtl_split(rng, ',', true)
}

/// `jtl` with its fields split by `d` (the delimiter inside quoted labels too), with JMeter's
/// default header first or none (the rows then in that order).
fn jtl_split(rng: &mut Rng, d: char, header: bool) -> Vec<u8> {
    let mut out = if header {
        "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes\n".replace(',', &d.to_string()).into_bytes()
    } else {
        Vec::new()
    };
    let mut t = 1_348_221_842_468u64;
    let n = 12_000;
    for i in 0..n {
        t += rng.below(40);
        let elapsed = 1 + rng.below(5000);
        let ok = rng.below(3) != 0;
        let quoted = format!("\"Quote \"\"x\"\"{d} y\"");
        let label = ["Buy", "Sell", quoted.as_str(), "Login"][rng.below(4) as usize];
        let message = if ok {
            String::new()
        } else {
            format!(
                "\"Assertion failed:\nexpected \"\"200\"\"\r\nbut, got\n500 {}\"",
                "x".repeat(rng.below(4000) as usize)
            )
        };
        let code = if ok { 200 } else { 500 };
        if i == n * 2 / 3 {
            out.extend(
                "label,elapsed,success,timeStamp,responseCode,responseMessage,failureMessage\n"
                    .replace(',', &d.to_string())
                    .as_bytes(),
            );
        }
        let row = if i < n * 2 / 3 {
            format!(
                "{t},{elapsed},{label},{code},{},T 1-{},text,{ok},{message},{}\n",
                if ok { "OK" } else { "Err" },
                i % 7,
                rng.below(9000)
            )
        } else {
            format!(
                "{label},{elapsed},{ok},{t},{code},{},{message}\n",
                if ok { "OK" } else { "Err" }
            )
        };
        // Commas inside quoted messages stay commas.
        let row = if d == ',' { row } else { split_by(&row, d) };
        out.extend(row.as_bytes());
        if rng.below(500) == 0 {
            out.extend(b"garbage \"line, never closed\n");
        }
        if rng.below(700) == 0 {
            out.extend(split_by("1348221842468,12,x,200,OK,T,text,maybe,,1\n", d).as_bytes());
        }
        blanks(rng, &mut out);
    }
    out
}

/// `row`'s commas outside quotes replaced by `d`.
fn split_by(row: &str, d: char) -> String {
    let mut quoted = false;
    row.chars()
        .map(|c| {
            if c == '"' {
                quoted = !quoted;
            }
            if c == ',' && !quoted {
                d
            } else {
                c
            }
        })
        .collect()
}

/// A Gatling 3.5 simulation.log of ~6 MB: users starting and ending, requests in and out of
/// groups, `KO`s with and without a message, groups' lines, 2.3-style requests part-way,
/// lines of no kind.
fn gatling(rng: &mut Rng) -> Vec<u8> {
    let mut out = b"RUN\tc.BasicSimulation\tbasicsimulation\t1611903780943\t \t3.5.1\n".to_vec();
    let mut t = 1_611_903_781_000u64;
    let n = 70_000;
    for i in 0..n {
        t += rng.below(30);
        let took = rng.below(2000);
        let ok = rng.below(8) != 0;
        let group = ["", "Checkout", "Checkout,Pay"][rng.below(3) as usize];
        let name = ["Home", "Search", "Cart"][rng.below(3) as usize];
        let (status, message) = match (ok, rng.below(2)) {
            (true, _) => ("OK", " ".to_string()),
            (false, 0) => ("KO", " ".to_string()),
            (false, _) => (
                "KO",
                format!(
                    "status.find.in(200), but actually found {}",
                    500 + rng.below(4)
                ),
            ),
        };
        let end = t + took;
        let line = if i > n / 2 && i % 5 == 0 {
            format!("REQUEST\tScn\t{i}\t{group}\t{name}\t{t}\t{end}\t{status}\t{message}\n")
        } else {
            format!("REQUEST\t{group}\t{name}\t{t}\t{end}\t{status}\t{message}\n")
        };
        out.extend(line.as_bytes());
        match rng.below(50) {
            0 => out.extend(format!("USER\tUsers\tSTART\t{t}\n").as_bytes()),
            1 => out.extend(format!("GROUP\tCheckout\t{t}\t{end}\t{took}\tOK\n").as_bytes()),
            2 => out.extend(b"not a line of the log\n"),
            _ => {}
        }
        blanks(rng, &mut out);
    }
    out
}

/// k6's `--out json` of ~8 MB: metric declarations, each request's duration point among its
/// phases' points, requests that failed (by `expected_response`, with and without an `error`
/// tag), points of other metrics, lines of no k6 object.
fn k6_json(rng: &mut Rng) -> Vec<u8> {
    let mut out = br#"{"type":"Metric","data":{"name":"http_req_duration","type":"trend","contains":"time","thresholds":[],"submetrics":null},"metric":"http_req_duration"}"#.to_vec();
    out.push(b'\n');
    let mut ms = 1_724_300_040_000u64;
    for i in 0..25_000 {
        ms += rng.below(40);
        let (s, frac) = (ms / 1000, ms % 1000);
        let stamp = format!(
            "2024-08-22T{:02}:{:02}:{:02}.{frac:03}456789-03:00",
            (s / 3600 + 21) % 24,
            s / 60 % 60,
            s % 60
        );
        let (status, expected, error) = match rng.below(10) {
            0 => ("404", "false", ""),
            1 => (
                "0",
                "false",
                r#","error":"request timeout","error_code":"1050""#,
            ),
            _ => ("200", "true", ""),
        };
        let name = ["home", "login", "pay"][rng.below(3) as usize];
        let tags = format!(
            r#"{{"expected_response":"{expected}","method":"GET","name":"{name}","status":"{status}"{error}}}"#
        );
        for metric in ["http_req_waiting", "http_req_duration", "http_reqs"] {
            let value = if metric == "http_reqs" {
                1
            } else {
                rng.below(3000)
            };
            out.extend(format!(r#"{{"metric":"{metric}","type":"Point","data":{{"time":"{stamp}","value":{value}.{},"tags":{tags}}}}}"#, i % 1000).as_bytes());
            out.push(b'\n');
        }
        if rng.below(300) == 0 {
            out.extend(b"not a k6 line\n");
        }
        blanks(rng, &mut out);
    }
    out
}

/// k6's `--out csv` of ~6 MB: its header, each request's duration row among its phases'
/// rows, failures with an error text quoted (a comma inside, and some over two lines), rows
/// of no metric.
fn k6_csv(rng: &mut Rng) -> Vec<u8> {
    let mut out = b"metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags\n".to_vec();
    let mut s = 1_724_300_040u64;
    for _ in 0..30_000 {
        s += rng.below(2);
        let (status, expected, error) = match rng.below(10) {
            0 => ("404", "false", String::new()),
            1 => ("0", "false", "\"request timeout, after\n60s\"".to_string()),
            2 => ("0", "false", "\"lookup: no such host\"".to_string()),
            _ => ("200", "true", String::new()),
        };
        let name = ["home", "login", "pay"][rng.below(3) as usize];
        for metric in ["http_reqs", "http_req_duration", "http_req_waiting"] {
            let value = if metric == "http_reqs" {
                1
            } else {
                rng.below(3000)
            };
            out.extend(
                format!("{metric},{s},{value}.250000,,{error},,{expected},,GET,{name},HTTP/1.1,default,,{status},,,http://shop/{name},\n")
                    .as_bytes(),
            );
        }
        if rng.below(300) == 0 {
            out.extend(b"not,a,k6,row\n");
        }
        blanks(rng, &mut out);
    }
    out
}

/// A Grinder log of ~6 MB: the default header, then a header with the HTTP code column
/// part-way; rows that cannot be read.
fn grinder(rng: &mut Rng) -> Vec<u8> {
    let mut out = b"Thread, Run, Test, Start time (ms since Epoch), Test time, Errors\n".to_vec();
    let mut t = 1_348_221_842_308u64;
    let n = 120_000;
    for i in 0..n {
        t += rng.below(30);
        if i == n / 2 {
            out.extend(b"Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, HTTP response code\n");
        }
        let errors = u64::from(rng.below(10) == 0);
        let mut row = format!(
            "{}, {}, {}, {t}, {}, {errors}",
            i % 4,
            i / 4,
            1 + rng.below(6),
            rng.below(3000)
        );
        if i >= n / 2 {
            row.push_str(&format!(", {}", if errors > 0 { 500 } else { 200 }));
        }
        row.push('\n');
        out.extend(row.as_bytes());
        if rng.below(800) == 0 {
            out.extend(b"0, 0, x, 1348221842308, 10, 0\n");
        }
        blanks(rng, &mut out);
    }
    out
}

/// A semicolon log of ~8 MB with floods of empty lines.
fn semicolon(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..120_000u64 {
        let ms = i * 37 % 1000;
        let s = i / 10 % 60;
        let total = rng.below(4000);
        let java = total / 3;
        let line = format!(
            "[{:032X}];2012-09-21 12:{:02}:{s:02}.{ms:03};{total};{java};{};{};op{};{}\n",
            i,
            i / 600 % 60,
            total - java,
            rng.below(9),
            rng.below(5),
            if rng.below(20) == 0 {
                "e-failed; badly"
            } else {
                ""
            }
        );
        out.extend(line.as_bytes());
        if rng.below(900) == 0 {
            out.extend(b"not a record\n");
        }
        blanks(rng, &mut out);
    }
    out
}

/// A JMeter XML log of ~9 MB: requests on one line, requests whose attributes take a line
/// each (in another order), requests with sub-samples, assertion results and a response
/// header of several lines whose end tag starts a line, so that most block cuts fall inside
/// one; entities in labels and messages; damage: a request whose end tag does not match (its
/// children skipped), text outside any request, values that cannot be true.
fn jmeter_xml(rng: &mut Rng) -> Vec<u8> {
    let mut out =
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n".to_vec();
    let mut t = 1_348_221_842_468u64;
    let labels = ["Buy", "Sell &amp; hold", "Quote &quot;x&quot;", "Login"];
    for i in 0..16_000u64 {
        t += rng.below(40);
        let elapsed = 1 + rng.below(5000);
        let ok = rng.below(3) != 0;
        let lb = labels[rng.below(4) as usize];
        let (rc, rm) = match (ok, rng.below(2)) {
            (true, _) | (false, 0) => (200, "OK"),
            _ => (500, "Internal &quot;Server&quot; Error"),
        };
        match rng.below(4) {
            0 => out.extend(
                format!(
                    "<httpSample t=\"{elapsed}\" lt=\"1\" ts=\"{t}\" s=\"{ok}\" lb=\"{lb}\" rc=\"{rc}\" rm=\"{rm}\" tn=\"T 1-{}\" by=\"{}\"/>\n",
                    i % 7,
                    rng.below(9000)
                )
                .as_bytes(),
            ),
            1 => out.extend(
                format!(
                    "<sample\n    rm=\"{rm}\"\n    lb=\"{lb}\"\n    s=\"{ok}\"\n    ts=\"{t}\"\n    rc=\"{rc}\"\n    t=\"{elapsed}\"/>\n"
                )
                .as_bytes(),
            ),
            _ => {
                out.extend(
                    format!(
                        "<httpSample t=\"{elapsed}\" ts=\"{t}\" s=\"{ok}\" lb=\"{lb}\" rc=\"{rc}\" rm=\"{rm}\">\n"
                    )
                    .as_bytes(),
                );
                for k in 0..rng.below(4) {
                    out.extend(
                        format!(
                            "  <httpSample t=\"{}\" ts=\"{t}\" s=\"{}\" lb=\"/res/{k}.js\" rc=\"200\" rm=\"OK\">\n    <responseHeader class=\"java.lang.String\">HTTP/1.1 200 OK\nContent-Type: text/javascript\n</responseHeader>\n  </httpSample>\n",
                            rng.below(500),
                            rng.below(5) != 0
                        )
                        .as_bytes(),
                    );
                }
                if !ok {
                    out.extend(
                        format!(
                            "  <assertionResult>\n    <name>Check</name>\n    <failure>true</failure>\n    <failureMessage>expected &lt;{}&gt; {}</failureMessage>\n  </assertionResult>\n",
                            rng.below(10),
                            "x".repeat(rng.below(3000) as usize)
                        )
                        .as_bytes(),
                    );
                }
                out.extend(b"  <responseData class=\"java.lang.String\">line one\nline two &amp; three\n</responseData>\n</httpSample>\n");
            }
        }
        if rng.below(500) == 0 {
            out.extend(b"<httpSample t=\"5\" ts=\"1348221842468\" s=\"true\" lb=\"bad\">\n  <httpSample t=\"1\" ts=\"1348221842468\" lb=\"child\"/>\n  <oops></httpSample>\n  <httpSample t=\"1\" ts=\"1348221842468\" lb=\"orphan\"/>\n");
        }
        if rng.below(600) == 0 {
            out.extend(b"not XML\n<httpSample t=\"-1\" ts=\"1348221842468\" lb=\"negative\"/>\n");
        }
        blanks(rng, &mut out);
    }
    out.extend(b"</testResults>\n");
    out
}

/// The streamed load of `buf` (written to a file) equals one pass over it.
fn streamed_equals_one_pass(format: gcperf::parse::family::PerfFormat, buf: &[u8], name: &str) {
    assert!(buf.len() > 4 << 20, "{name}: big enough for several blocks");
    let one = perf::parse(format, buf);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(buf)
        .unwrap();
    let Input::Perf(l) = load_any(&path).expect("load") else {
        panic!("{name}: not read as a performance log");
    };
    assert_eq!(l.format, format, "{name}");
    let counts = |g: &gcperf::model::PerfLog| {
        (
            g.lines,
            g.record_lines,
            g.ignored_lines,
            g.skipped_lines,
            g.bad
                .iter()
                .map(|b| (b.line, b.text.clone()))
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(counts(&l.log), counts(&one), "{name}: line accounting");
    assert!(one.skipped_lines > 0 && one.records.len() > 1000, "{name}");
    let df = &l.frame.df;
    assert_eq!(df.height(), one.records.len(), "{name}: records");
    let col = |n: &str| df.column(n).unwrap().as_materialized_series().clone();
    let (end, total, ok, line, op, err) = (
        col(c::END_MS),
        col(c::TOTAL_MS),
        col(c::OK),
        col(c::LINE),
        col(c::OPERATION_ID),
        col(c::ERROR_ID),
    );
    let (end, total, ok, line, op, err) = (
        end.i64().unwrap(),
        total.f64().unwrap(),
        ok.bool().unwrap(),
        line.u32().unwrap(),
        op.u32().unwrap(),
        err.u32().unwrap(),
    );
    for (i, r) in one.records.iter().enumerate() {
        let want = (
            r.end_ms,
            r.total_ms,
            r.ok,
            r.line,
            one.strings.get(r.operation).to_string(),
            r.error.map(|e| one.strings.get(e).to_string()),
        );
        let got = (
            end.get(i).unwrap(),
            total.get(i).unwrap(),
            ok.get(i).unwrap(),
            u64::from(line.get(i).unwrap()),
            l.frame.operation(op.get(i).unwrap()).to_string(),
            err.get(i).map(|e| l.frame.operation(e).to_string()),
        );
        assert_eq!(got, want, "{name}: record {i}");
    }
}

/// A request's path: ids among names, a query now and then.
fn access_path(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => format!("/products/{}", rng.below(100_000)),
        1 => format!("/orders/{:016x}/items?page={}", rng.next(), rng.below(9)),
        2 => "/".to_string(),
        _ => "/search?q=shoes".to_string(),
    }
}

fn access_status(rng: &mut Rng) -> u64 {
    [200, 200, 200, 200, 201, 304, 404, 500, 503][rng.below(9) as usize]
}

/// An IIS W3C log of ~8 MB: its directives and a header, a second header with fewer
/// fields part-way (blocks after it read with it), lines of no request.
fn iis(rng: &mut Rng) -> Vec<u8> {
    let mut out = b"#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2024-03-05 00:00:00\n#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port c-ip cs(User-Agent) sc-status sc-substatus time-taken\n".to_vec();
    let n = 80_000;
    let mut t = 0u64;
    for i in 0..n {
        t += rng.below(1000);
        let stamp = format!(
            "2024-03-05 {:02}:{:02}:{:02}.{:03}",
            (t / 3_600_000) % 24,
            (t / 60_000) % 60,
            (t / 1000) % 60,
            t % 1000
        );
        if i == n / 2 {
            out.extend(b"#Fields: date time cs-method cs-uri-stem sc-status time-taken\n");
        }
        let path = access_path(rng);
        let stem = path.split('?').next().unwrap_or("/").to_string();
        let (method, status, took) = (
            ["GET", "POST"][rng.below(2) as usize],
            access_status(rng),
            rng.below(3000),
        );
        let line = if i >= n / 2 {
            format!("{stamp} {method} {stem} {status} {took}\n")
        } else {
            format!("{stamp} 10.0.0.1 {method} {stem} - 443 192.168.1.{} \"Mozilla/5.0 (X11; Linux)\" {status} 0 {took}\n", rng.below(250))
        };
        out.extend(line.as_bytes());
        match rng.below(60) {
            0 => out.extend(b"not a line of the log\n"),
            1 => out.extend(b"#Remark: rotated\n"),
            _ => {}
        }
        blanks(rng, &mut out);
    }
    out
}

/// A HAProxy HTTP log of ~8 MB with its start-up and connection-error lines.
fn haproxy(rng: &mut Rng) -> Vec<u8> {
    let mut out = b"Mar  5 00:00:00 lb1 haproxy[1]: Proxy web started.\n".to_vec();
    let mut t = 0u64;
    for _ in 0..50_000 {
        t += rng.below(1000);
        let (h, m, s, ms) = (
            (t / 3_600_000) % 24,
            (t / 60_000) % 60,
            (t / 1000) % 60,
            t % 1000,
        );
        let took = rng.below(3000);
        let tr = if rng.below(50) == 0 {
            "-1".to_string()
        } else {
            (took / 2).to_string()
        };
        let line = format!(
            "Mar  5 {h:02}:{m:02}:{s:02} lb1 haproxy[7]: 10.0.0.{}:{} [05/Mar/2024:{h:02}:{m:02}:{s:02}.{ms:03}] web~ app/srv{} 0/0/1/{tr}/{took} {} 512 - - ---- 1/1/0/0/0 0/0 \"{} {} HTTP/1.1\"\n",
            rng.below(250),
            1024 + rng.below(60000),
            rng.below(4),
            access_status(rng),
            ["GET", "POST"][rng.below(2) as usize],
            access_path(rng)
        );
        out.extend(line.as_bytes());
        match rng.below(60) {
            0 => out.extend(b"not a line of the log\n"),
            1 => out.extend(format!("Mar  5 {h:02}:{m:02}:{s:02} lb1 haproxy[7]: 10.0.0.9:5 [05/Mar/2024:{h:02}:{m:02}:{s:02}.{ms:03}] web/bind1: SSL handshake failure\n").as_bytes()),
            _ => {}
        }
        blanks(rng, &mut out);
    }
    out
}

/// A uWSGI request log of ~8 MB, msecs and micros, with lines of uWSGI's start-up.
fn uwsgi(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    let mut t = 0u64;
    for i in 0..45_000 {
        t += rng.below(3);
        let (h, m, s) = ((t / 3600) % 24, (t / 60) % 60, t % 60);
        let (n, unit) = if rng.below(5) == 0 {
            (rng.below(5000), "micros")
        } else {
            (rng.below(3000), "msecs")
        };
        let line = format!(
            "[pid: {}|app: 0|req: {}/{i}] 10.0.0.{} () {{40 vars in 700 bytes}} [Tue Mar  5 {h:02}:{m:02}:{s:02} 2024] {} {} => generated 512 bytes in {n} {unit} (HTTP/1.1 {}) 4 headers in 130 bytes (1 switches on core {})\n",
            100 + rng.below(8),
            i / 8,
            rng.below(250),
            ["GET", "POST"][rng.below(2) as usize],
            access_path(rng),
            access_status(rng),
            rng.below(16)
        );
        out.extend(line.as_bytes());
        if rng.below(60) == 0 {
            out.extend(b"*** Starting uWSGI 2.0.21 (64bit) ***\n");
        }
        blanks(rng, &mut out);
    }
    out
}

/// Caddy's JSON access log of ~8 MB: durations as seconds and as Go texts, other loggers'
/// objects, lines of no object.
fn caddy(rng: &mut Rng) -> Vec<u8> {
    let mut out = b"{\"level\":\"info\",\"ts\":1709596800.0,\"logger\":\"http\",\"msg\":\"server running\",\"name\":\"srv0\"}\n".to_vec();
    let mut t = 1_709_596_800_000u64;
    for _ in 0..30_000 {
        t += rng.below(1000);
        let d = rng.below(3_000_000);
        let duration = if rng.below(4) == 0 {
            format!("\"{}.{:03}ms\"", d / 1000, d % 1000)
        } else {
            format!("{}.{:06}", d / 1_000_000, d % 1_000_000)
        };
        let line = format!(
            "{{\"level\":\"info\",\"ts\":{}.{:03},\"logger\":\"http.log.access.log0\",\"msg\":\"handled request\",\"request\":{{\"remote_ip\":\"10.0.0.{}\",\"proto\":\"HTTP/2.0\",\"method\":\"{}\",\"host\":\"shop.example\",\"uri\":\"{}\",\"headers\":{{\"User-Agent\":[\"curl/8.5.0\"]}}}},\"bytes_read\":0,\"user_id\":\"\",\"duration\":{duration},\"size\":512,\"status\":{},\"resp_headers\":{{\"Server\":[\"Caddy\"]}}}}\n",
            t / 1000,
            t % 1000,
            rng.below(250),
            ["GET", "POST"][rng.below(2) as usize],
            access_path(rng),
            access_status(rng)
        );
        out.extend(line.as_bytes());
        match rng.below(60) {
            0 => out.extend(b"not a line of the log\n"),
            1 => out.extend(b"{\"level\":\"warn\",\"ts\":1709596800.5,\"logger\":\"tls\",\"msg\":\"stapling OCSP\"}\n"),
            _ => {}
        }
        blanks(rng, &mut out);
    }
    out
}

/// Each registered family, with its generator and a file name: a family added to
/// `PERF_FAMILIES` fails `every_family_has_a_generator` until it has one here.
fn generated(format: gcperf::parse::family::PerfFormat) -> Option<(Vec<u8>, &'static str)> {
    match format.as_str() {
        "jmeter-jtl" => Some((jtl(&mut Rng(0x9E37_79B9_7F4A_7C15)), "big.jtl")),
        "grinder" => Some((grinder(&mut Rng(0xD1B5_4A32_D192_ED03)), "data_big.log")),
        "perf-csv" => Some((semicolon(&mut Rng(0x2545_F491_4F6C_DD1D)), "perf-big.log")),
        "jmeter-xml" => Some((jmeter_xml(&mut Rng(0x6A6D_6574_6572_786D)), "big-xml.jtl")),
        "gatling" => Some((gatling(&mut Rng(0x94D0_49BB_1331_11EB)), "simulation.log")),
        "k6-json" => Some((k6_json(&mut Rng(0xBF58_476D_1CE4_E5B9)), "k6.json")),
        "k6-csv" => Some((k6_csv(&mut Rng(0x94D0_49BB_1331_11EB)), "k6.csv")),
        "access-iis" => Some((iis(&mut Rng(0x1115_7733_0123_4567)), "u_ex240305.log")),
        "access-haproxy" => Some((haproxy(&mut Rng(0x4A9B_0C1D_2E3F_4051)), "haproxy.log")),
        "access-uwsgi" => Some((uwsgi(&mut Rng(0x75A5_6169_0000_0001)), "uwsgi.log")),
        "access-caddy" => Some((caddy(&mut Rng(0xCADD_1E55_0000_0001)), "access.log")),
        _ => None,
    }
}

#[test]
fn every_family_has_a_generator() {
    for &f in gcperf::parse::family::PERF_FAMILIES {
        assert!(
            generated(f).is_some(),
            "{f}: no generator in tests/perf_streamed.rs"
        );
    }
}

#[test]
fn jtl_in_blocks_equals_one_pass() {
    let (buf, name) = generated(JMETER_JTL).unwrap();
    streamed_equals_one_pass(JMETER_JTL, &buf, name);
}

/// A JTL without a header split by tabs: the blocks after the first are read with the tab
/// its first rows told, whatever their own first lines are (a flood, a message's lines).
#[test]
fn tab_jtl_without_header_in_blocks_equals_one_pass() {
    let buf = jtl_split(&mut Rng(0x9E37_79B9_7F4A_7C15), '\t', false);
    streamed_equals_one_pass(JMETER_JTL, &buf, "big-tabs.jtl");
    // The same samples split by commas are the same records.
    let commas = jtl_split(&mut Rng(0x9E37_79B9_7F4A_7C15), ',', false);
    same_samples(
        &perf::parse(JMETER_JTL, &buf),
        &perf::parse(JMETER_JTL, &commas),
    );
}

/// Two logs of the same samples, split differently, read alike.
fn same_samples(a: &gcperf::model::PerfLog, b: &gcperf::model::PerfLog) {
    let key = |g: &gcperf::model::PerfLog| {
        let rows: Vec<_> = g
            .records
            .iter()
            .map(|r| {
                (
                    r.end_ms,
                    r.total_ms,
                    r.ok,
                    r.line,
                    r.error.map(|e| g.strings.get(e).to_string()),
                )
            })
            .collect();
        (
            g.lines,
            g.record_lines,
            g.ignored_lines,
            g.skipped_lines,
            rows,
        )
    };
    let (ka, kb) = (key(a), key(b));
    assert!(ka.4.len() > 10_000, "{}", ka.4.len());
    assert_eq!(ka, kb);
}

/// A JTL split by `|` with JMeter's header, and another header part-way.
#[test]
fn pipe_jtl_in_blocks_equals_one_pass() {
    let buf = jtl_split(&mut Rng(0x2545_F491_4F6C_DD1D), '|', true);
    streamed_equals_one_pass(JMETER_JTL, &buf, "big-pipes.jtl");
    let commas = jtl_split(&mut Rng(0x2545_F491_4F6C_DD1D), ',', true);
    same_samples(
        &perf::parse(JMETER_JTL, &buf),
        &perf::parse(JMETER_JTL, &commas),
    );
}

#[test]
fn gatling_in_blocks_equals_one_pass() {
    let (buf, name) = generated(gcperf::parse::gatling::FAMILY).unwrap();
    streamed_equals_one_pass(gcperf::parse::gatling::FAMILY, &buf, name);
}

#[test]
fn k6_json_in_blocks_equals_one_pass() {
    let (buf, name) = generated(gcperf::parse::k6::FAMILY).unwrap();
    streamed_equals_one_pass(gcperf::parse::k6::FAMILY, &buf, name);
}

#[test]
fn access_logs_in_blocks_equal_one_pass() {
    use gcperf::parse::access::{CADDY, HAPROXY, IIS, UWSGI};
    for f in [IIS, HAPROXY, UWSGI, CADDY] {
        let (buf, name) = generated(f).unwrap();
        streamed_equals_one_pass(f, &buf, name);
    }
}

#[test]
fn k6_csv_in_blocks_equals_one_pass() {
    let (buf, name) = generated(gcperf::parse::k6::CSV).unwrap();
    streamed_equals_one_pass(gcperf::parse::k6::CSV, &buf, name);
}

#[test]
fn grinder_in_blocks_equals_one_pass() {
    let (buf, name) = generated(GRINDER).unwrap();
    streamed_equals_one_pass(GRINDER, &buf, name);
}

#[test]
fn jmeter_xml_in_blocks_equals_one_pass() {
    let (buf, name) = generated(JMETER_XML).unwrap();
    streamed_equals_one_pass(JMETER_XML, &buf, name);
}

#[test]
fn semicolon_in_blocks_equals_one_pass() {
    let (buf, name) = generated(SEMICOLON).unwrap();
    streamed_equals_one_pass(SEMICOLON, &buf, name);
}

/// A JTL block cut inside a quoted field: the record open at the block's end is left unread
/// and read with the next block, as one pass reads it.
#[test]
fn a_quoted_field_open_at_a_block_end_is_read_with_the_next() {
    let head = b"timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage\n";
    let row1 = b"1348221842468,75,Buy,200,OK,T,text,true,\n";
    let row2 = b"1348221842500,80,Buy,500,Err,T,text,false,\"line one\nline \"\"two\"\"\"\n";
    let mut whole = head.to_vec();
    whole.extend(row1);
    whole.extend(row2);
    let cut = head.len() + row1.len() + row2.len() - 12; // inside the quoted field
    let first = perf::parse_block(JMETER_JTL, None, &whole[..cut], false);
    assert_eq!(first.log.records.len(), 1);
    assert_eq!(first.unread, cut - head.len() - row1.len());
    assert_eq!(
        first.log.lines, 2,
        "the open record's lines are not counted yet"
    );
    assert_eq!(first.header.as_deref(), Some(&head[..head.len() - 1]));
    let mut rest = whole[cut - first.unread..].to_vec();
    let second = perf::parse_block(JMETER_JTL, first.header.as_deref(), &rest, true);
    assert_eq!(second.log.records.len(), 1);
    assert_eq!(second.log.record_lines, 2);
    assert_eq!(second.unread, 0);
    // Read as the last block, a field never closed is bad lines (its first, then the next,
    // `line "two"`, whose quotes do not make a field), not left unread.
    rest.truncate(rest.len() - 2);
    let last = perf::parse_block(JMETER_JTL, first.header.as_deref(), &rest, true);
    assert_eq!((last.unread, last.log.records.len()), (0, 0));
    assert_eq!((last.log.lines, last.log.skipped_lines), (2, 2));
}
