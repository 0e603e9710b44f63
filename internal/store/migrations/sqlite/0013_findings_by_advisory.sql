-- An advisory's (or an indicator's) findings, in any status: what an
-- indicator's dry run, apply and archive read, and the findings list
-- filtered by advisory. Without it each of them read every finding of the
-- organization (measured by BenchmarkDryRun1M: 100,000 findings).
CREATE INDEX findings_org_advisory ON findings(org_id, advisory_id, id);
