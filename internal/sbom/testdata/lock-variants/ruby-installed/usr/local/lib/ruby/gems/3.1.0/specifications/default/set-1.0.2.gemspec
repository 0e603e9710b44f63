# -*- encoding: utf-8 -*-
# stub: set 1.0.2 ruby lib

Gem::Specification.new do |s|
  s.name = "set".freeze
  s.version = "1.0.2"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "changelog_uri" => "https://github.com/ruby/set/blob/v1.0.2/CHANGELOG.md", "homepage_uri" => "https://github.com/ruby/set", "source_code_uri" => "https://github.com/ruby/set" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Akinori MUSHA".freeze]
  s.date = "2026-11-21"
  s.description = "Provides a class to deal with collections of unordered, unique values".freeze
  s.email = ["knu@idaemons.org".freeze]
  s.files = ["lib/set.rb".freeze, "lib/set/sorted_set.rb".freeze]
  s.homepage = "https://github.com/ruby/set".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.3.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Provides a class to deal with collections of unordered, unique values".freeze
end
