package sbom

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	scalibrlog "github.com/google/osv-scalibr/log"
)

// scalibr logs through a process-wide logger (its log package) that writes
// to stderr with the standard log package: lines such as
// `openAndExtractFromFile(...)` would appear in the middle of the agent's
// output in another format. Extract installs, once, a logger that forwards
// scalibr's messages to the *slog.Logger in Options.Logger, or drops them
// when there is none. scalibr's logger being global, concurrent Extract
// calls share one destination: the Logger of the most recent call.

// scalibrDest is where scalibr's messages go; nil drops them.
var scalibrDest atomic.Pointer[slog.Logger]

var installScalibrLog sync.Once

// routeScalibrLogs installs the forwarding logger and points it at l.
func routeScalibrLogs(l *slog.Logger) {
	installScalibrLog.Do(func() { scalibrlog.SetLogger(scalibrLogger{}) })
	scalibrDest.Store(l)
}

// scalibrLogger implements scalibr's log.Logger. Errors and warnings keep
// their level; scalibr's info and debug messages are debug here: they
// describe its internals, not the scan.
type scalibrLogger struct{}

func (scalibrLogger) log(level slog.Level, msg string) {
	l := scalibrDest.Load()
	if l == nil || !l.Enabled(context.Background(), level) {
		return
	}
	l.Log(context.Background(), level, msg, slog.String("source", "osv-scalibr"))
}

func (s scalibrLogger) Errorf(format string, args ...any) {
	s.log(slog.LevelError, fmt.Sprintf(format, args...))
}
func (s scalibrLogger) Error(args ...any) { s.log(slog.LevelError, fmt.Sprint(args...)) }
func (s scalibrLogger) Warnf(format string, args ...any) {
	s.log(slog.LevelWarn, fmt.Sprintf(format, args...))
}
func (s scalibrLogger) Warn(args ...any) { s.log(slog.LevelWarn, fmt.Sprint(args...)) }
func (s scalibrLogger) Infof(format string, args ...any) {
	s.log(slog.LevelDebug, fmt.Sprintf(format, args...))
}
func (s scalibrLogger) Info(args ...any) { s.log(slog.LevelDebug, fmt.Sprint(args...)) }
func (s scalibrLogger) Debugf(format string, args ...any) {
	s.log(slog.LevelDebug, fmt.Sprintf(format, args...))
}
func (s scalibrLogger) Debug(args ...any) { s.log(slog.LevelDebug, fmt.Sprint(args...)) }
