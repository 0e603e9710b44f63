package secrets

import (
	"strings"
	"sync"

	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// EngineName and EngineVersion name the detection engine in reports.
// EngineVersion must follow go.mod; a test checks it does.
const (
	EngineName    = "gitleaks"
	EngineVersion = "8.30.1"
)

// maxDecodeDepth is how many nested encodings (base64, hex, percent) the
// engine decodes and scans again, as the gitleaks command does by default.
const maxDecodeDepth = 5

// defaultConfig is gitleaks' default rule set, translated once: it compiles
// a few hundred regular expressions. It reads the embedded TOML through its
// own viper instance, not viper's global one (detect.NewDetectorDefaultConfig
// uses the global, which is not safe for concurrent use).
var defaultConfig = sync.OnceValues(func() (config.Config, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		return config.Config{}, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return config.Config{}, err
	}
	return vc.Translate()
})

// silenceEngine turns gitleaks' package-level logger off, once per process.
// It logs each secret it finds or skips at trace and debug level, and
// warnings to stderr in its own format: neither may reach an agent's
// output. This is the one write Sentinel makes to another package's global,
// and it only ever lowers what is printed.
var silenceEngine = sync.OnceFunc(func() {
	logging.Logger = zerolog.Nop()
})

// newDetector returns a gitleaks detector with the default rules.
func newDetector() (*detect.Detector, config.Config, error) {
	silenceEngine()
	cfg, err := defaultConfig()
	if err != nil {
		return nil, cfg, err
	}
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = maxDecodeDepth
	return d, cfg, nil
}

// pathAllowed reports whether gitleaks' global allowlist excludes a
// slash-separated path (lockfiles, images, fonts, node_modules, Python
// site-packages, ...). The detector applies the same list to every
// fragment; checking it before reading a file saves the read, and on a
// directory prunes the walk, exactly as gitleaks' own directory source does.
func pathAllowed(cfg *config.Config, rel string) bool {
	for _, a := range cfg.Allowlists {
		if a.PathAllowed(rel) {
			return true
		}
	}
	return false
}
