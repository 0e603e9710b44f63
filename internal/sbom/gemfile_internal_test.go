package sbom

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sampleGemfile puts gems in groups every way Bundler's DSL allows.
const sampleGemfile = `# frozen_string_literal: true
source "https://rubygems.org"
ruby "3.3.0"

gem "rails", "~> 8.0"
gem "pg"

group :development, :test do
  gem "debug", platforms: %i[mri windows], require: "debug/prelude"
  gem "rubocop", require: false
  platforms :mri do
    gem "byebug"
  end
end

group(:test) do
  gem "capybara"
  if ENV["CI"]
    gem "rspec_junit_formatter"
  end
  gem "minitest"
end

group :development do
  gem "web-console"
end

group :assets, :development do
  gem "tailwindcss-rails"
end

group :avo, optional: true do
  source "https://packager.dev/avo-hq/" do
    gem "avo-advanced", "~> 3.32"
  end
end

gem "annotate", group: :development
gem "factory_bot", groups: [:development, :test]
gem "faker", :group => :test
gem "letter_opener", :groups => [:development, "test"]
gem "minitest", "~> 5.0" # also at the top level: needed at runtime
gem "sidekiq", group: [:default, :development]
gem("pry", group: :development)
`

// TestGemfileDevelopment: the ways a Gemfile puts a gem in a group.
func TestGemfileDevelopment(t *testing.T) {
	var got []string
	for n := range gemfileDevelopment([]byte(sampleGemfile)) {
		got = append(got, n)
	}
	slices.Sort(got)
	want := []string{"annotate", "byebug", "capybara", "debug", "factory_bot", "faker", "letter_opener", "pry", "rspec_junit_formatter", "rubocop", "web-console"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("development-only gems (-want +got):\n%s", diff)
	}
}

// FuzzGemfileDevelopment: any Gemfile is read without a panic, and a gem
// it calls development-only is one it declares.
func FuzzGemfileDevelopment(f *testing.F) {
	f.Add([]byte(sampleGemfile))
	f.Add([]byte("end\nend\ngroup :test do\ngem 'x'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for n := range gemfileDevelopment(data) {
			if !strings.Contains(string(data), n) {
				t.Fatalf("%q is not in the Gemfile", n)
			}
		}
	})
}
