# -*- encoding: utf-8 -*-
# stub: tsort 0.1.0 ruby lib

Gem::Specification.new do |s|
  s.name = "tsort".freeze
  s.version = "0.1.0"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/tsort", "source_code_uri" => "https://github.com/ruby/tsort" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Tanaka Akira".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "Topological sorting using Tarjan's algorithm".freeze
  s.email = ["akr@fsij.org".freeze]
  s.files = ["tsort.rb".freeze]
  s.homepage = "https://github.com/ruby/tsort".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.3.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Topological sorting using Tarjan's algorithm".freeze
end
