# -*- encoding: utf-8 -*-
# stub: pathname 0.2.0 ruby lib
# stub: ext/pathname/extconf.rb

Gem::Specification.new do |s|
  s.name = "pathname".freeze
  s.version = "0.2.0"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/pathname", "source_code_uri" => "https://github.com/ruby/pathname" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Tanaka Akira".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "Representation of the name of a file or directory on the filesystem".freeze
  s.email = ["akr@fsij.org".freeze]
  s.extensions = ["ext/pathname/extconf.rb".freeze]
  s.files = ["ext/pathname/extconf.rb".freeze, "pathname.rb".freeze, "pathname.so".freeze]
  s.homepage = "https://github.com/ruby/pathname".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.3.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Representation of the name of a file or directory on the filesystem".freeze
end
