//! What each GC finding means and what to try, in words a report reader needs: the
//! finding ids of `analyze::diag::FINDING_IDS`, each with the JVM documentation it follows.

/// A finding explained.
pub struct Advice {
    /// The finding as a heading.
    pub title: &'static str,
    /// What happened in the JVM.
    pub what: &'static str,
    /// What to try.
    pub try_this: &'static str,
    /// Where the explanation and the advice come from.
    pub source: (&'static str, &'static str),
}

const TUNING_8: &str = "https://docs.oracle.com/javase/8/docs/technotes/guides/vm/gctuning/";
const G1_17: &str = "https://docs.oracle.com/en/java/javase/17/gctuning/garbage-first-garbage-collector-tuning.html";

/// The advice for a finding id; None for an id this table does not know.
pub fn of(id: &str) -> Option<Advice> {
    let a = |title, what, try_this, source| {
        Some(Advice {
            title,
            what,
            try_this,
            source,
        })
    };
    match id {
        "explicit-gc" => a(
            "Explicit GC",
            "Collections requested by the application, not needed by the heap: System.gc() or \
             Runtime.gc() in its code or a library's, RMI's distributed GC (hourly by default), \
             or a jmap/jcmd heap command. Each is a full collection.",
            "Find the caller (a stack sample at the collection, or RMI's interval: \
             -Dsun.rmi.dgc.server.gcInterval); where the calls are not needed, \
             -XX:+DisableExplicitGC ignores them, and with CMS or G1 \
             -XX:+ExplicitGCInvokesConcurrent makes them concurrent cycles instead of full \
             collections.",
            ("HotSpot GC Tuning Guide (JDK 8): Other Considerations, Explicit Garbage Collection", TUNING_8),
        ),
        "concurrent-mode-failure" => a(
            "Concurrent mode failure",
            "CMS could not finish collecting the old generation before it filled, so the \
             application was stopped for a full, compacting collection: the longest pauses \
             such a log has.",
            "Start the concurrent cycle earlier (-XX:CMSInitiatingOccupancyFraction lower, with \
             -XX:+UseCMSInitiatingOccupancyOnly), give the old generation more room (a larger \
             heap), or give the cycle more threads (-XX:ConcGCThreads).",
            ("HotSpot GC Tuning Guide (JDK 8): Concurrent Mark Sweep Collector, Concurrent Mode Failure", TUNING_8),
        ),
        "promotion-failure" => a(
            "Promotion failure",
            "A young collection could not move its survivors into the old generation (no free \
             block large enough, often fragmentation under CMS); the collection is undone \
             and a full collection follows.",
            "A larger old generation, an earlier concurrent cycle (as for a concurrent mode \
             failure), or fewer promoted objects: larger survivor spaces (-XX:SurvivorRatio) \
             and a higher -XX:MaxTenuringThreshold keep short-lived objects young.",
            ("HotSpot GC Tuning Guide (JDK 8): Concurrent Mark Sweep Collector", TUNING_8),
        ),
        "to-space-exhausted" => a(
            "Evacuation failure (to-space exhausted)",
            "G1 ran out of free regions to copy live objects into during a pause; the pause \
             grows while it fixes up the objects it could not move, and a full collection may \
             follow.",
            "A larger heap, a larger reserve (-XX:G1ReservePercent), marking started earlier \
             (-XX:InitiatingHeapOccupancyPercent lower, or let adaptive IHOP learn), or more \
             marking threads (-XX:ConcGCThreads).",
            ("Java 17 GC Tuning Guide: Garbage-First Garbage Collector Tuning, Evacuation Failure", G1_17),
        ),
        "humongous" => a(
            "Humongous allocations",
            "Objects of half a G1 region or more are humongous: allocated straight into the old \
             generation in whole regions, they start collections, fill the heap early and \
             fragment it.",
            "Larger regions (-XX:G1HeapRegionSize, a power of two from 1 to 32 MB) so that the \
             objects are no longer humongous, or fewer large arrays in the application \
             (buffers reused, collections presized).",
            ("Java 17 GC Tuning Guide: Garbage-First Garbage Collector Tuning, Humongous Objects", G1_17),
        ),
        "metadata-gc" => a(
            "Collections for class metadata",
            "Collections started because class metadata reached its threshold (Metadata GC \
             Threshold; the permanent generation before JDK 8). Early in a run they are the \
             threshold growing as classes load; later they point at classes loaded and \
             unloaded again.",
            "Raise the initial threshold (-XX:MetaspaceSize) above the metadata the application \
             settles at; if they go on all run, look for a class-loader leak (redeployments, \
             generated proxies or scripts).",
            ("HotSpot GC Tuning Guide (JDK 8): Other Considerations, Class Metadata", TUNING_8),
        ),
        "full-gc" => a(
            "Full collections",
            "The whole heap was collected with the application stopped. With a concurrent \
             collector (CMS, G1) a full collection means the concurrent work did not keep up \
             with allocation.",
            "See the pause time per cause above: allocation failures call for a larger heap or \
             an earlier concurrent cycle; explicit or metadata causes have their own findings.",
            ("Java 17 GC Tuning Guide: Garbage-First Garbage Collector Tuning, Full Garbage Collections", G1_17),
        ),
        "over-pause-target" => a(
            "Pauses over the target",
            "Pauses longer than the pause target (the log's own, or --pause-target).",
            "With G1 the target is -XX:MaxGCPauseMillis, which it sizes the young generation \
             for: pauses over it point at more live data to copy than the target allows (see \
             the live set), or at work the target does not cover, such as reference \
             processing (-XX:+ParallelRefProcEnabled).",
            ("Java 17 GC Tuning Guide: Garbage-First Garbage Collector Tuning, Improving G1 Latencies", G1_17),
        ),
        "gc-overhead" => a(
            "GC overhead",
            "Intervals in which the application spent more than 5 % of the time stopped for GC.",
            "A larger heap, the young generation above all, makes collections rarer; a lower \
             allocation rate (see the allocation figures) makes them rarer still.",
            ("HotSpot GC Tuning Guide (JDK 8): Ergonomics, Behavior-Based Tuning", TUNING_8),
        ),
        "long-ttsp" => a(
            "Long time to safepoint",
            "Threads took more than 100 ms to reach a safepoint: every thread waits for the \
             slowest to stop, so the application stood still longer than the pause the log \
             counts.",
            "Look for long counted loops the JIT compiled without safepoint polls \
             (-XX:+UseCountedLoopSafepoints before JDK 10), large array copies, or page \
             faults and swapping (-XX:+AlwaysPreTouch); -Xlog:safepoint names the operation \
             each safepoint served.",
            ("Java 17 tools reference: the java command, -Xlog and safepoint logging", "https://docs.oracle.com/en/java/javase/17/docs/specs/man/java.html"),
        ),
        "live-set-growth" => a(
            "Live set growing",
            "The heap left after full or old collections rises through the log: the application \
             keeps more objects the longer it runs, a leak or a cache still filling.",
            "Compare class histograms (jcmd <pid> GC.class_histogram) or heap dumps (jcmd <pid> \
             GC.heap_dump) taken hours apart; the classes that grow are the leak.",
            ("Java 17 Troubleshooting Guide: Troubleshoot Memory Leaks", "https://docs.oracle.com/en/java/javase/17/troubleshoot/troubleshooting-memory-leaks.html"),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_finding_is_explained() {
        for id in crate::analyze::diag::FINDING_IDS {
            let a = super::of(id).unwrap_or_else(|| panic!("{id} has no advice"));
            assert!(!a.what.is_empty() && !a.try_this.is_empty(), "{id}");
            assert!(a.source.1.starts_with("https://docs.oracle.com/"), "{id}");
        }
    }
}
