-- The fleet's exact figures in DuckDB, straight from the Parquet files that fleet.py's
-- `gcperf export` runs wrote: the same questions, in the same order and with the same column
-- names, as fleet.sql asks Spark.
--
-- {{EXPORT}} stands for the export folder (OUT/export of fleet.py); replace it before running,
-- e.g. with sed:
--   sed 's|{{EXPORT}}|/data/fleet-out/export|g' fleet_duckdb.sql | duckdb
-- (tests/spark/check_fleet.py substitutes it and runs each `-- name:` statement in turn).
-- `**/*.parquet` also finds the parts of an export written with --partition-by host (add
-- `hive_partitioning = true` to each read_parquet to get `host` back from the folder names).
--
-- Counts are counts (0 is a figure); a sum, maximum or percentile of no values is NULL, and so
-- is a count of pauses (requests, errors) where the host has no GC (performance) log at all.
-- quantile_cont is the linear interpolation between closest ranks that gcperf's percentiles
-- and Spark's percentile use.

-- name: per_host
WITH inputs AS (
    SELECT host,
           count(*)                              AS files,
           count(*) FILTER (WHERE records = 0)   AS files_without_records,
           count(*) FILTER (WHERE kind = 'gc')   AS gc_logs,
           count(*) FILTER (WHERE kind = 'perf') AS perf_logs
    FROM read_parquet('{{EXPORT}}/files/**/*.parquet', union_by_name = true)
    GROUP BY host
),
pauses AS (
    -- The pauses gcperf counts are the `pause` records (not concurrent phases, safepoints,
    -- stalls, JRockit collection totals or collections nested in another's stop).
    SELECT host,
           count(*)                       AS pauses,
           sum(duration_ms)               AS pause_total_ms,
           max(duration_ms)               AS pause_max_ms,
           quantile_cont(duration_ms, 0.99)  AS pause_p99_ms
    FROM read_parquet('{{EXPORT}}/gc/**/*.parquet', union_by_name = true)
    WHERE record = 'pause'
    GROUP BY host
),
requests AS (
    SELECT host,
           count(*)                          AS requests,
           count(*) FILTER (WHERE NOT ok)    AS errors,
           sum(total_ms)                     AS total_ms_sum,
           max(total_ms)                     AS total_ms_max,
           quantile_cont(total_ms, 0.99)     AS total_ms_p99
    FROM read_parquet('{{EXPORT}}/perf/**/*.parquet', union_by_name = true)
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
    FROM read_parquet('{{EXPORT}}/files/**/*.parquet', union_by_name = true)
),
pauses AS (
    SELECT count(*)                       AS pauses,
           sum(duration_ms)               AS pause_total_ms,
           max(duration_ms)               AS pause_max_ms,
           quantile_cont(duration_ms, 0.99)  AS pause_p99_ms
    FROM read_parquet('{{EXPORT}}/gc/**/*.parquet', union_by_name = true)
    WHERE record = 'pause'
),
requests AS (
    SELECT count(*)                          AS requests,
           count(*) FILTER (WHERE NOT ok)    AS errors,
           sum(total_ms)                     AS total_ms_sum,
           max(total_ms)                     AS total_ms_max,
           quantile_cont(total_ms, 0.99)     AS total_ms_p99
    FROM read_parquet('{{EXPORT}}/perf/**/*.parquet', union_by_name = true)
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
