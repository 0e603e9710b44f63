# -*- encoding: utf-8 -*-
# stub: open3 0.1.1 ruby lib

Gem::Specification.new do |s|
  s.name = "open3".freeze
  s.version = "0.1.1"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/open3", "source_code_uri" => "https://github.com/ruby/open3" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Yukihiro Matsumoto".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "Popen, but with stderr, too".freeze
  s.email = ["matz@ruby-lang.org".freeze]
  s.files = ["lib/open3.rb".freeze, "lib/open3/version.rb".freeze]
  s.homepage = "https://github.com/ruby/open3".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.6.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Popen, but with stderr, too".freeze
end
