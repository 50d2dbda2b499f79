// ingest_duckdb.mjs: DuckDB's CSV reader doing what `gpuplan validate`
// does with a trace, for bench/ingest.sh: every row read, its
// instance-hours summed per clock hour and series (type, workload, team,
// project).  Prints the groups and the total; the caller times the process.
//
//   node ingest_duckdb.mjs TRACE.csv THREADS [epoch|iso]
import { DuckDBInstance } from '@duckdb/node-api';

const [file, threads, flavour = 'epoch'] = process.argv.slice(2);
// the clock hour: of epoch seconds, or of the ISO times DuckDB reads as
// timestamps
const hour = flavour === 'iso' ? "date_trunc('hour', timestamp)"
                               : 'timestamp // 3600';
const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const con = await db.connect();
const quoted = file.replaceAll("'", "''");
const result = await con.runAndReadAll(`
  SELECT count(*) AS groups, sum(ih) AS instance_hours FROM (
    SELECT instance_type, workload, team, project,
           ${hour} AS hour,
           sum(instances * step_s / 3600.0) AS ih
    FROM read_csv('${quoted}', header = true)
    GROUP BY ALL)`);
console.log(JSON.stringify(result.getRowObjectsJson()[0]));
