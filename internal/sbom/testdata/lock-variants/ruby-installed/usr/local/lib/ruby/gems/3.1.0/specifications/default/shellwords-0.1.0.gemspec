# -*- encoding: utf-8 -*-
# stub: shellwords 0.1.0 ruby lib

Gem::Specification.new do |s|
  s.name = "shellwords".freeze
  s.version = "0.1.0"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/shellwords", "source_code_uri" => "https://github.com/ruby/shellwords" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Akinori MUSHA".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "Manipulates strings with word parsing rules of UNIX Bourne shell.".freeze
  s.email = ["knu@idaemons.org".freeze]
  s.files = ["shellwords.rb".freeze]
  s.homepage = "https://github.com/ruby/shellwords".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.3.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Manipulates strings with word parsing rules of UNIX Bourne shell.".freeze
end
