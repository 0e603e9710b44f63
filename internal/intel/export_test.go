package intel

// LoadEcosystems is loadEcosystems for the external tests: osv.dev's
// per-ecosystem all.zip layout, not used by the service yet (intel sync
// takes directories, zips and URLs).
var LoadEcosystems = loadEcosystems
