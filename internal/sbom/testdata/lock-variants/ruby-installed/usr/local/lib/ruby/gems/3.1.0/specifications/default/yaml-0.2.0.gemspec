# -*- encoding: utf-8 -*-
# stub: yaml 0.2.0 ruby lib

Gem::Specification.new do |s|
  s.name = "yaml".freeze
  s.version = "0.2.0"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/yaml", "source_code_uri" => "https://github.com/ruby/yaml" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Aaron Patterson".freeze, "SHIBATA Hiroshi".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "YAML Ain't Markup Language".freeze
  s.email = ["aaron@tenderlovemaking.com".freeze, "hsbt@ruby-lang.org".freeze]
  s.files = ["lib/yaml.rb".freeze, "lib/yaml/dbm.rb".freeze, "lib/yaml/store.rb".freeze]
  s.homepage = "https://github.com/ruby/yaml".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.rubygems_version = "3.3.7".freeze
  s.summary = "YAML Ain't Markup Language".freeze
end
