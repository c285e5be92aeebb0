//! Charts: every GC chart renders for every GC log family, decodes as a PNG of the requested
//! size, is not blank, and is byte-identical when rendered again.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// (width, height, share of non-white pixels)
fn decode(p: &Path) -> (u32, u32, f64) {
    let dec = png::Decoder::new(std::fs::File::open(p).expect("png file"));
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let px = info.color_type.samples();
    let data = &buf[..info.buffer_size()];
    let inked = data
        .chunks(px)
        .filter(|c| c.iter().take(3).any(|&v| v < 200))
        .count();
    (
        info.width,
        info.height,
        inked as f64 / (data.len() / px) as f64,
    )
}

fn render(inputs: &[PathBuf], out: &Path, extra: &[&str]) -> Vec<PathBuf> {
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", "-q", "--size", "800x450", "--out"])
        .arg(out)
        .args(extra)
        .args(inputs)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(PathBuf::from)
        .collect()
}

#[test]
fn every_gc_chart_renders_for_every_family_and_is_deterministic() {
    let inputs = vec![
        fixture("hotspot/jdk8-g1-details.log"),
        fixture("jrockit/r26-gencon.log"),
        fixture("unified/zgc-jdk21.log"),
    ];
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let first = render(&inputs, a.path(), &[]);
    assert_eq!(first.len(), 9);
    for chart in ["pauses", "heap", "pause-histogram"] {
        for stem in ["jdk8-g1-details", "r26-gencon", "zgc-jdk21"] {
            let p = a.path().join(format!("{stem}-{chart}.png"));
            assert!(first.contains(&p), "{} missing", p.display());
            let (w, h, inked) = decode(&p);
            assert_eq!((w, h), (800, 450));
            // Axes, labels and data: clearly more than a blank page, far from a filled one.
            assert!(inked > 0.01 && inked < 0.6, "{}: {inked}", p.display());
        }
    }
    let second = render(&inputs, b.path(), &[]);
    for (p, q) in first.iter().zip(&second) {
        assert_eq!(
            std::fs::read(p).unwrap(),
            std::fs::read(q).unwrap(),
            "{} differs",
            p.display()
        );
    }
    // Log scale renders too.
    let c = tempfile::tempdir().unwrap();
    assert_eq!(render(&inputs[..1], c.path(), &["--log-y"]).len(), 3);
}

#[test]
fn one_event_renders_and_no_event_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.log");
    std::fs::write(&one, "[GC 325407K->83000K(776768K), 0.2300771 secs]\n").unwrap();
    let out = dir.path().join("out");
    let files = render(&[one], &out, &[]);
    assert_eq!(files.len(), 3);
    for f in files {
        assert_eq!(decode(&f).0, 800);
    }
    let none = dir.path().join("none.log");
    std::fs::write(&none, "Java HotSpot(TM) 64-Bit Server VM\nHeap\n").unwrap();
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", "--out"])
        .arg(&out)
        .arg(&none)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("none.log: no GC or performance records found")
    );
}
