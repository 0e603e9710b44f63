# -*- encoding: utf-8 -*-
# stub: benchmark 0.2.0 ruby lib

Gem::Specification.new do |s|
  s.name = "benchmark".freeze
  s.version = "0.2.0"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/benchmark", "source_code_uri" => "https://github.com/ruby/benchmark" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Yukihiro Matsumoto".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "a performance benchmarking library".freeze
  s.email = ["matz@ruby-lang.org".freeze]
  s.files = ["lib/benchmark.rb".freeze, "lib/benchmark/version.rb".freeze]
  s.homepage = "https://github.com/ruby/benchmark".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.rubygems_version = "3.3.7".freeze
  s.summary = "a performance benchmarking library".freeze
end
