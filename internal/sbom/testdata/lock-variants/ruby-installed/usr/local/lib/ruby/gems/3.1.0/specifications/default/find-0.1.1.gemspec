# -*- encoding: utf-8 -*-
# stub: find 0.1.1 ruby lib

Gem::Specification.new do |s|
  s.name = "find".freeze
  s.version = "0.1.1"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/find", "source_code_uri" => "https://github.com/ruby/find" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Kazuki Tsujimoto".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "This module supports top-down traversal of a set of file paths.".freeze
  s.email = ["kazuki@callcc.net".freeze]
  s.files = ["find.rb".freeze]
  s.homepage = "https://github.com/ruby/find".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.3.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "This module supports top-down traversal of a set of file paths.".freeze
end
