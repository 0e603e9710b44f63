-- PostgreSQL only (sbom_documents.body compressed with LZ4): SQLite stores
-- the original bytes as they are. Kept so that both engines share versions.
SELECT 1;
