# -*- encoding: utf-8 -*-
# stub: un 0.2.0 ruby lib

Gem::Specification.new do |s|
  s.name = "un".freeze
  s.version = "0.2.0"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/un", "source_code_uri" => "https://github.com/ruby/un" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["WATANABE Hirofumi".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "Utilities to replace common UNIX commands".freeze
  s.email = ["eban@ruby-lang.org".freeze]
  s.files = ["un.rb".freeze]
  s.homepage = "https://github.com/ruby/un".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.3.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Utilities to replace common UNIX commands".freeze
end
