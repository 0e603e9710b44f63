package scan_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	sentinel "github.com/sentinel-sca/sentinel"
)

// The tests in this file scan real PHP applications as Debian packages
// them, served by PHP's built-in server on loopback. They need the Debian
// packages php-cli, php-sqlite3, dokuwiki, phpmyadmin, mediawiki,
// roundcube-core (with roundcube-sqlite3) and adminer
// (install them with the command in aptInstall); without them they skip,
// except under CI=true, where they fail. The versions they expect come from
// dpkg, not from the scan's own readers.

const aptInstall = "apt-get install --no-install-recommends php-cli php-cgi php-sqlite3 dbconfig-no-thanks dokuwiki phpmyadmin mediawiki roundcube-core roundcube-sqlite3 adminer"

// requirePackages skips (or, under CI, fails) unless php and the given
// paths are installed.
func requirePackages(t *testing.T, paths ...string) {
	t.Helper()
	missing := ""
	if _, err := exec.LookPath("php"); err != nil {
		missing = "php (Debian package php-cli)"
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil && missing == "" {
			missing = p
		}
	}
	if missing == "" {
		return
	}
	msg := "needs " + missing + ": " + aptInstall
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// upstream returns the upstream version of an installed Debian package
// ("3.6.1+dfsg+~3.5.14-1" -> "3.6.1").
func upstream(t *testing.T, pkg string) string {
	t.Helper()
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", pkg).Output()
	if err != nil {
		t.Skipf("dpkg-query %s: %v", pkg, err)
	}
	m := regexp.MustCompile(`^(?:\d+:)?(\d+\.\d+(?:\.\d+)?)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("dpkg version %q of %s", out, pkg)
	}
	return m[1]
}

func phpVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("php", "-r", "echo PHP_VERSION;").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// freeAddr returns a loopback address with a port free right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// phpServer runs `php -S` on docroot and returns its base URL.
func phpServer(t *testing.T, docroot string) string {
	t.Helper()
	return phpServerAt(t, freeAddr(t), docroot, "", nil)
}

// phpServerAt runs `php -S addr -t docroot [router]` with extra environment.
func phpServerAt(t *testing.T, addr, docroot, router string, env []string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	args := []string{"-S", addr, "-t", docroot}
	if router != "" {
		args = append(args, router)
	}
	cmd := exec.CommandContext(ctx, "php", args...)
	cmd.Dir = docroot
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("php -S %s did not start", addr)
	return ""
}

// dokuwikiRelease is the installed DokuWiki's release as it names it
// ("2022-07-31b"), from the package's version (0.0.20220731.a-2 is the
// release of that date; its hotfix letter only the release file has, so
// the test takes the letter from the file and checks the date).
func dokuwikiRelease(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", "dokuwiki").Output()
	if err != nil {
		t.Skipf("dpkg-query dokuwiki: %v", err)
	}
	m := regexp.MustCompile(`^0\.0\.(\d{4})(\d\d)(\d\d)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("dpkg version %q of dokuwiki", out)
	}
	date := m[1] + "-" + m[2] + "-" + m[3]
	b, err := os.ReadFile("/usr/share/dokuwiki/VERSION")
	if err != nil {
		t.Fatal(err)
	}
	rel, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if !strings.HasPrefix(rel, date) {
		t.Fatalf("VERSION %q is not the package's release %s", b, date)
	}
	return rel
}

// TestScan_DokuWiki: Debian's dokuwiki, which serves Debian's jQuery and
// jQuery UI concatenated through lib/exe/jquery.php. jQuery keeps its
// banner; Debian's rebuilt jQuery UI has none and the concatenation is in
// no catalog, so jQuery UI is (rightly) not claimed. The generator tag
// names no version; the release file, /VERSION, does.
func TestScan_DokuWiki(t *testing.T) {
	requirePackages(t, "/usr/share/dokuwiki/doku.php")
	site := phpServer(t, "/usr/share/dokuwiki")
	cfg := testConfig()
	cfg.MaxPages = 15
	res := mustScan(t, site+"/doku.php", cfg)
	php := phpVersion(t)
	checkDetections(t, res, []want{
		{name: "DokuWiki", versions: []string{dokuwikiRelease(t)}, kinds: []string{sentinel.EvidenceCMSPath, sentinel.EvidenceGenerator, sentinel.EvidenceCookie}},
		{name: "jQuery", versions: []string{upstream(t, "libjs-jquery")}, purl: "pkg:npm/jquery@" + upstream(t, "libjs-jquery"), kinds: []string{sentinel.EvidenceFingerprint}},
		{name: "PHP", versions: []string{php}, purl: "pkg:bitnami/php@" + php, kinds: []string{sentinel.EvidenceHeader}},
	})
}

// TestScan_Roundcube: Debian's roundcube, its login page served from
// /var/lib/roundcube/public_html. Nothing on the page names the version
// but the number its scripts are handed, "rcversion":10605; Roundcube has
// advisories as Packagist's roundcube/roundcubemail.
//
// Roundcube will not show its login page without a database: the test
// gives it a configuration of its own (ROUNDCUBE_CONFIG_DIR, Debian's
// defaults.inc.php and a config.inc.php naming a SQLite database made from
// Roundcube's own schema in a temporary directory), so that it does not
// depend on how the machine's roundcube package was configured.
func TestScan_Roundcube(t *testing.T) {
	requirePackages(t, "/var/lib/roundcube/public_html/index.php", "/etc/roundcube/defaults.inc.php", "/usr/share/roundcube/SQL/sqlite.initial.sql")
	conf := t.TempDir()
	defaults, err := os.ReadFile("/etc/roundcube/defaults.inc.php")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(conf, "roundcube.db")
	files := map[string]string{
		"defaults.inc.php": string(defaults),
		"config.inc.php": "<?php\n$config = [];\n$config['db_dsnw'] = 'sqlite:///" + db + "?mode=0640';\n" +
			"$config['des_key'] = 'sentinel-scan-test-24chr';\n$config['imap_host'] = 'localhost:143';\n" +
			"$config['log_driver'] = 'stdout';\n$config['temp_dir'] = '" + conf + "';\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(conf, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	schema := `$d = new PDO("sqlite:" . $argv[1]); $d->exec(file_get_contents("/usr/share/roundcube/SQL/sqlite.initial.sql"));`
	if out, err := exec.Command("php", "-r", schema, db).CombinedOutput(); err != nil {
		t.Fatalf("create Roundcube's database: %v\n%s", err, out)
	}
	site := phpServerAt(t, freeAddr(t), "/var/lib/roundcube/public_html", "", []string{"ROUNDCUBE_CONFIG_DIR=" + conf})
	res := mustScan(t, site+"/", testConfig())
	rc := upstream(t, "roundcube-core")
	checkDetections(t, res, []want{
		{name: "Roundcube", versions: []string{rc}, purl: "pkg:composer/roundcube/roundcubemail@" + rc, kinds: []string{sentinel.EvidenceFingerprint, sentinel.EvidenceCookie}},
	})
}

// TestScan_Adminer: Debian's adminer, its login page. The heading names the
// version, and so do the URLs of the files Adminer serves itself
// (?file=functions.js&version=4.8.1); the fingerprint rule alone takes
// the heading's for a query's, so the two together name it.
func TestScan_Adminer(t *testing.T) {
	requirePackages(t, "/usr/share/adminer/adminer.php")
	site := phpServer(t, "/usr/share/adminer")
	res := mustScan(t, site+"/adminer.php", testConfig())
	v := upstream(t, "adminer")
	checkDetections(t, res, []want{
		{name: "Adminer", versions: []string{v}, purl: "pkg:composer/vrana/adminer@" + v, kinds: []string{sentinel.EvidenceFingerprint}},
	})
}

// TestScan_PhpMyAdmin: Debian's phpmyadmin under /phpmyadmin/, with
// Debian's jQuery and jQuery UI (symlinked from libjs-*: catalog hashes of
// Debian's rows) and the Bootstrap it bundles (banner and hash). Debian
// ships no ChangeLog or README in the web root and the ?v= it appends is
// "5.2.1deb1+deb12u1", but its documentation (doc/html/, a probe) names
// the version.
func TestScan_PhpMyAdmin(t *testing.T) {
	requirePackages(t, "/usr/share/phpmyadmin/index.php")
	root := t.TempDir()
	if err := os.Symlink("/usr/share/phpmyadmin", filepath.Join(root, "phpmyadmin")); err != nil {
		t.Fatal(err)
	}
	site := phpServer(t, root)
	res := mustScan(t, site+"/phpmyadmin/", testConfig())
	php := phpVersion(t)
	ws := []want{
		{name: "phpMyAdmin", versions: []string{upstream(t, "phpmyadmin")}, purl: "pkg:bitnami/phpmyadmin@" + upstream(t, "phpmyadmin"), kinds: []string{sentinel.EvidenceCookie, sentinel.EvidenceCMSPath}},
		{name: "jQuery", versions: []string{upstream(t, "libjs-jquery")}, kinds: []string{sentinel.EvidenceHash}},
		{name: "jQuery UI", versions: []string{upstream(t, "libjs-jquery-ui")}, kinds: []string{sentinel.EvidenceHash}},
		{name: "PHP", versions: []string{php}, purl: "pkg:bitnami/php@" + php},
		// Debian's own builds, linked into phpMyAdmin: versions from code.
		{name: "CodeMirror", versions: []string{upstream(t, "libjs-codemirror")}, purl: "pkg:npm/codemirror@" + upstream(t, "libjs-codemirror")},
		{name: "jQuery Timepicker Addon", versions: []string{upstream(t, "libjs-jquery-timepicker")}},
	}
	if upstream(t, "phpmyadmin") == "5.2.1" {
		ws = append(ws, want{name: "Bootstrap", versions: []string{"5.1.3"}, purl: "pkg:npm/bootstrap@5.1.3", kinds: []string{sentinel.EvidenceHash, sentinel.EvidenceFingerprint}},
			// phpMyAdmin's own bundled copies.
			want{name: "jQuery Validation", versions: []string{"1.19.5"}},
			want{name: "jQuery Migrate", versions: []string{"3.4.0"}},
			want{name: "JavaScript Cookie", versions: []string{"2.2.1"}})
	}
	checkDetections(t, res, ws)
	// Debian's jQuery is Debian's build, which may carry fixes its
	// upstream version does not: the detection says whose build it is.
	for _, d := range res.Detections {
		if d.Name == "jQuery" && d.Distribution != "Debian" {
			t.Errorf("jQuery from libjs-jquery: distribution %q, want Debian", d.Distribution)
		}
	}
}

// mediawikiSite installs Debian's MediaWiki into a temporary SQLite
// database and serves it; it returns the site's URL.
func mediawikiSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	addr := freeAddr(t)
	install := exec.Command("php", "/usr/share/mediawiki/maintenance/install.php",
		"--dbtype=sqlite", "--dbpath="+dir, "--dbname=wiki", "--server=http://"+addr, "--scriptpath=",
		"--confpath="+dir, "--pass=Sentinel-test-pass-1234", "--lang=en", "Sentinel Wiki", "Admin")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("MediaWiki install: %v\n%s", err, out)
	}
	router := filepath.Join(dir, "router.php")
	if err := os.WriteFile(router, []byte(mediawikiRouter), 0o644); err != nil {
		t.Fatal(err)
	}
	site := phpServerAt(t, addr, "/usr/share/mediawiki", router, []string{"SENTINEL_MW_CONFIG=" + filepath.Join(dir, "LocalSettings.php")})
	return site
}

// mediawikiRouter serves Debian's MediaWiki from /usr/share/mediawiki with
// the LocalSettings.php the test's installer wrote (MW_CONFIG_FILE), the
// way a web server's rewrite rules would.
const mediawikiRouter = `<?php
define('MW_CONFIG_FILE', getenv('SENTINEL_MW_CONFIG'));
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = realpath('/usr/share/mediawiki' . $path);
if ($file !== false && is_file($file) && substr($file, -4) !== '.php') {
    return false;
}
if ($file !== false && is_file($file) && strncmp($file, '/usr/share/mediawiki/', 21) === 0) {
    $_SERVER['SCRIPT_NAME'] = $path;
    $_SERVER['SCRIPT_FILENAME'] = $file;
    chdir(dirname($file));
    require $file;
    return true;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
chdir('/usr/share/mediawiki');
require '/usr/share/mediawiki/index.php';
`

// TestScan_MediaWiki: Debian's mediawiki, installed into a temporary
// SQLite database by its own installer. The generator tag, the Atom feed's
// generator and the siteinfo API (a probe) name the version; jQuery is
// loaded by MediaWiki's JavaScript loader at run time, so a crawler that
// runs no JavaScript sees none, and none is claimed.
func TestScan_MediaWiki(t *testing.T) {
	requirePackages(t, "/usr/share/mediawiki/index.php", "/usr/share/mediawiki/maintenance/install.php")
	if out, _ := exec.Command("php", "-m").Output(); !strings.Contains(string(out), "pdo_sqlite") {
		requirePackages(t, "/nonexistent/php-sqlite3")
	}
	site := mediawikiSite(t)
	cfg := testConfig()
	cfg.MaxPages = 10
	res := mustScan(t, site+"/", cfg)
	mw := upstream(t, "mediawiki")
	php := phpVersion(t)
	checkDetections(t, res, []want{
		{name: "MediaWiki", versions: []string{mw}, purl: "pkg:bitnami/mediawiki@" + mw, kinds: []string{sentinel.EvidenceGenerator, sentinel.EvidenceCMSPath}},
		{name: "PHP", versions: []string{php}, purl: "pkg:bitnami/php@" + php},
	})
	if vs := versions(res)["jQuery"]; len(vs) != 0 {
		t.Errorf("jQuery %q claimed on a site that loads it only from JavaScript", vs)
	}
	// The package serves vendor/ from its root: Composer's record of the
	// PHP libraries installed is there for anyone to read, and each is
	// reported from it.
	var installed struct {
		Packages []struct{ Name, Version string } `json:"packages"`
	}
	readJSON(t, "/usr/share/mediawiki/vendor/composer/installed.json", &installed)
	if len(installed.Packages) < 20 {
		t.Fatalf("installed.json lists %d packages", len(installed.Packages))
	}
	for _, p := range installed.Packages {
		purl := "pkg:composer/" + p.Name + "@" + p.Version
		if !slices.ContainsFunc(res.Detections, func(d sentinel.Detection) bool {
			return d.Purl == purl && slices.ContainsFunc(d.Evidence, func(e sentinel.DetectionEvidence) bool {
				return e.URL == site+"/vendor/composer/installed.json"
			})
		}) {
			t.Errorf("%s: not reported from /vendor/composer/installed.json", purl)
		}
	}
}
