-- The fleet's exact figures, in Spark SQL, over the temp views that fleet.py registers:
--   gc        spark.read.parquet('OUT/export/gc')     (one row per GC record)
--   perf      spark.read.parquet('OUT/export/perf')   (one row per request)
--   files     spark.read.parquet('OUT/export/files')  (one row per input, those without records too)
--   summaries spark.read.parquet('OUT/summaries')     (gcperf summary's objects; used by fleet.py
--             for the merged sketches, not here)
-- `host` is the column `gcperf export --tag host=H` adds to every row.
--
-- fleet.py runs each statement below by its `-- name:` line (the statements end with `;`).
-- Counts are counts (0 is a figure); a sum, maximum or percentile of no values is NULL, and so
-- is a count of pauses (requests, errors) where the host has no GC (performance) log at all:
-- the fleet cannot say what it never saw. `percentile` is the linear interpolation between
-- closest ranks that gcperf's own percentiles use.
-- fleet_duckdb.sql asks the same questions of the same Parquet files in DuckDB.

-- name: per_host
WITH inputs AS (
    SELECT host,
           count(*)                              AS files,
           count(*) FILTER (WHERE records = 0)   AS files_without_records,
           count(*) FILTER (WHERE kind = 'gc')   AS gc_logs,
           count(*) FILTER (WHERE kind = 'perf') AS perf_logs
    FROM files
    GROUP BY host
),
pauses AS (
    -- The pauses gcperf counts are the `pause` records (not concurrent phases, safepoints,
    -- stalls, JRockit collection totals or collections nested in another's stop).
    SELECT host,
           count(*)                       AS pauses,
           sum(duration_ms)               AS pause_total_ms,
           max(duration_ms)               AS pause_max_ms,
           percentile(duration_ms, 0.99)  AS pause_p99_ms
    FROM gc
    WHERE record = 'pause'
    GROUP BY host
),
requests AS (
    SELECT host,
           count(*)                          AS requests,
           count(*) FILTER (WHERE NOT ok)    AS errors,
           sum(total_ms)                     AS total_ms_sum,
           max(total_ms)                     AS total_ms_max,
           percentile(total_ms, 0.99)        AS total_ms_p99
    FROM perf
    GROUP BY host
)
SELECT i.host,
       i.files,
       i.files_without_records,
       i.gc_logs,
       CASE WHEN i.gc_logs > 0 THEN coalesce(p.pauses, 0) END     AS pauses,
       p.pause_total_ms,
       p.pause_max_ms,
       p.pause_p99_ms,
       i.perf_logs,
       CASE WHEN i.perf_logs > 0 THEN coalesce(r.requests, 0) END AS requests,
       CASE WHEN i.perf_logs > 0 THEN coalesce(r.errors, 0) END   AS errors,
       r.total_ms_sum,
       r.total_ms_max,
       r.total_ms_p99
FROM inputs i
LEFT JOIN pauses p   ON p.host = i.host
LEFT JOIN requests r ON r.host = i.host
ORDER BY i.host;

-- name: fleet
-- The whole fleet at once: a fleet percentile is taken over every host's values, never from
-- the hosts' percentiles (which cannot be combined).
WITH inputs AS (
    SELECT count(*)                              AS files,
           count(*) FILTER (WHERE records = 0)   AS files_without_records,
           count(*) FILTER (WHERE kind = 'gc')   AS gc_logs,
           count(*) FILTER (WHERE kind = 'perf') AS perf_logs
    FROM files
),
pauses AS (
    SELECT count(*)                       AS pauses,
           sum(duration_ms)               AS pause_total_ms,
           max(duration_ms)               AS pause_max_ms,
           percentile(duration_ms, 0.99)  AS pause_p99_ms
    FROM gc
    WHERE record = 'pause'
),
requests AS (
    SELECT count(*)                          AS requests,
           count(*) FILTER (WHERE NOT ok)    AS errors,
           sum(total_ms)                     AS total_ms_sum,
           max(total_ms)                     AS total_ms_max,
           percentile(total_ms, 0.99)        AS total_ms_p99
    FROM perf
)
SELECT i.files,
       i.files_without_records,
       i.gc_logs,
       CASE WHEN i.gc_logs > 0 THEN p.pauses END     AS pauses,
       p.pause_total_ms,
       p.pause_max_ms,
       p.pause_p99_ms,
       i.perf_logs,
       CASE WHEN i.perf_logs > 0 THEN r.requests END AS requests,
       CASE WHEN i.perf_logs > 0 THEN r.errors END   AS errors,
       r.total_ms_sum,
       r.total_ms_max,
       r.total_ms_p99
FROM inputs i
CROSS JOIN pauses p
CROSS JOIN requests r;
